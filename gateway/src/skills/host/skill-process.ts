/**
 * The gateway's side of a skill host: one child process (built by an isolation's command
 * builder) spoken to with one JSON-RPC line per request on stdin/stdout. Calls run one at a
 * time. A timeout, a crash, an oversized answer or a protocol error kills the child and
 * rejects the call with a SkillCallError (a tool error); the next call starts a fresh child.
 * While a call runs, the child may ask for one of the gateway's gated tools
 * (`{"request":n,"method":"shell","params":{…}}`): the call's `hostTools` answers it
 * (`{"reply":n,"result":…}` or an error), one request at a time, and the call's timeout does not
 * run while the gateway works on it (an approval may wait for the user).
 *
 * A child unused for `idleMs` is stopped (its memory returned) and the next call starts a fresh
 * one, as after a crash: the caller never sees it, but a Plugin instance's in-memory state
 * starts afresh. Calls are counted from the moment they are made, so a call made while the
 * idle stop runs waits for it and gets the new child.
 *
 * The child has no network: its `fetch` is a request too (`{"request":n,"method":"fetch",…}`),
 * answered by the gateway's own fetch for this skill (skill-fetch.ts, bound to its manifest),
 * which the privacy audit observes. Nothing else the child writes is trusted as a record: a line
 * that is not an answer to the running call or a request (an `{"event":…}` report, a `reply`, a
 * stale id) is ignored and counted as a protocol violation in the host's log.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from '../../observability/logger.ts';
import type { HostToolCall, SkillHost, SkillToolSpec } from '../types.ts';
import { SkillCallError, type SkillCallFailure } from './errors.ts';
import type { HostGuard } from './host-guard.ts';
import type { ConnectHost, HostLink, HostLinkEvents } from './host-link.ts';
import type { HostFetch, SkillFetchParams } from './skill-fetch.ts';

export type { ChildCommand } from './child-link.ts';

export interface SkillProcessLimits {
  /** Default per-call timeout; a call may ask for less or more. */
  callTimeoutMs: number;
  /** Loading the skill and listing its tools. */
  startTimeoutMs: number;
  /** The longest answer line accepted from the child (bytes). */
  maxOutputBytes: number;
  /** The tail of the child's stderr kept for error messages (bytes). */
  maxStderrBytes: number;
  /** A child unused this long is stopped, and started again by the next call; 0: never. */
  idleMs: number;
  /**
   * Bytes the gateway wrote to the child that it has not read yet (its answers to the child's
   * requests pile up when it writes requests without reading): past this the host is stopped.
   */
  maxUnreadInputBytes: number;
  /** Lines the protocol does not have a host may write during one call before it is stopped. */
  maxStrayLines: number;
  /** Tools one skill may list. */
  maxTools: number;
}

export const DEFAULT_LIMITS: SkillProcessLimits = {
  callTimeoutMs: 30_000,
  startTimeoutMs: 10_000,
  maxOutputBytes: 256 * 1024,
  maxStderrBytes: 8 * 1024,
  idleMs: 300_000,
  // Four fetch answers of 1 MiB (base64) in flight fit with room to spare.
  maxUnreadInputBytes: 8 * 1024 * 1024,
  maxStrayLines: 10_000,
  maxTools: 100,
};

/** Fetches one call may have running at once, and in all. */
const MAX_FETCHES_IN_FLIGHT = 4;
const MAX_FETCHES_PER_CALL = 100;

/** The caps whose refusals are counted (`extension_input_refused_total{limit}`). */
export type SkillInputLimit =
  | 'answer_bytes'
  | 'unread_input_bytes'
  | 'stray_lines'
  | 'tools_listed'
  | 'fetches_in_flight'
  | 'fetches_per_call'
  | 'sidecar_message_bytes';

interface Pending {
  id: number;
  resolve: (value: unknown) => void;
  reject: (error: SkillCallError) => void;
  hostTools?: HostToolCall;
  /** A request for a gateway tool is being answered. */
  hostBusy: boolean;
  /** Stop and restart the call's timeout around a request for a gateway tool. */
  pause: () => void;
  resume: () => void;
  /** Runs work in the async context of the code that made the call (its session). */
  inCallContext: <R>(work: () => R) => R;
  /** Aborted when the call ends: its fetches stop with it. */
  ended: AbortController;
  /** A tool call (fetches are answered), not the listing of tools at start. */
  isCall: boolean;
  fetchesRunning: number;
  fetchesMade: number;
}

interface Running {
  link: HostLink;
  pending: Pending | null;
  stdout: Buffer[];
  stdoutBytes: number;
  stderr: string;
  exited: boolean;
  /** Lines the protocol does not have (forged reports, replies, stale ids), and those logged. */
  violations: number;
  violationsLogged: number;
  /** Of those, since the running call (or the listing of tools) was sent. */
  strayLines: number;
  /** Stops watching its resources (host-guard.ts). */
  unwatch?: () => void;
}

export interface SkillProcessOptions {
  skill: string;
  /** Starts one host process behind its walls (here: a child; or in the sandbox sidecar). */
  connect: ConnectHost;
  limits: SkillProcessLimits;
  logger: Logger;
  /** Answers the child's `fetch` requests; absent: the skill has no network and they are refused. */
  fetch?: HostFetch;
  /** Told when a child starts (true) and when it is gone (false): the isolation counts them. */
  onRunning?: (running: boolean) => void;
  /** Resource limits: each child is watched and stopped when over one (local hosts). */
  guard?: HostGuard;
  /** Told why, when a child was stopped for going over a resource limit. */
  onLimit?: (reason: string) => void;
  /** Told each time something the child sent is refused over one of the caps above (a counter). */
  onRefused?: (limit: SkillInputLimit) => void;
}

/** Starts the child, reads its tool list, and returns the host (rejects if it does not load). */
export async function startSkillProcess(options: SkillProcessOptions): Promise<SkillHost> {
  const { skill, limits, logger } = options;
  let running: Running | null = null;
  let nextId = 1;
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  /** Calls made and not yet settled (queued ones included). */
  let active = 0;
  let idleTimer: NodeJS.Timeout | undefined;

  const fail = (reason: SkillCallFailure, message: string): SkillCallError =>
    new SkillCallError(reason, `skill ${skill}: ${message}`);

  function stop(state: Running, error: SkillCallError): void {
    if (running === state) {
      running = null;
      options.onRunning?.(false);
    }
    state.unwatch?.();
    const pending = state.pending;
    state.pending = null;
    pending?.reject(error);
    logViolations(state);
    if (!state.exited) state.link.kill();
  }

  /** Says in the host's log how many lines the protocol does not have the child wrote. */
  function logViolations(state: Running): void {
    if (state.violations === state.violationsLogged) return;
    logger.warn(
      { skill, violations: state.violations - state.violationsLogged },
      'the skill host wrote lines the protocol does not have (ignored; nothing it reports is recorded)',
    );
    state.violationsLogged = state.violations;
  }

  /** A child over a resource limit: stopped, its call failed with the reason, and reported. */
  function exceed(state: Running, reason: string): void {
    if (running !== state && state.exited) return;
    logger.warn({ skill, reason }, 'skill host went over a resource limit and was stopped');
    stop(state, fail('limit', `the skill host was stopped: ${reason}`));
    options.onLimit?.(reason);
  }

  const refused = (limit: SkillInputLimit): void => options.onRefused?.(limit);

  /**
   * Writes one line to the child. A child that keeps asking without reading the answers would
   * make them pile up here: past `maxUnreadInputBytes` it is stopped.
   */
  function send(state: Running, line: string): void {
    state.link.send(line);
    if (state.link.unread() <= limits.maxUnreadInputBytes) return;
    refused('unread_input_bytes');
    stop(
      state,
      fail(
        'protocol',
        `the skill host did not read its input (more than ${limits.maxUnreadInputBytes} bytes of answers waited for it) and was stopped`,
      ),
    );
  }

  /** A line the protocol does not have: counted; past `maxStrayLines` the host is stopped. */
  function stray(state: Running): void {
    state.violations += 1;
    state.strayLines += 1;
    if (state.strayLines <= limits.maxStrayLines) return;
    refused('stray_lines');
    stop(
      state,
      fail(
        'protocol',
        `the skill host wrote more than ${limits.maxStrayLines} lines the protocol does not have and was stopped`,
      ),
    );
  }

  function reply(state: Running, request: number, body: { result: string } | { error: string }) {
    if (state.exited || running !== state) return;
    const message =
      'result' in body
        ? { reply: request, result: body.result }
        : { reply: request, error: { message: body.error } };
    send(state, `${JSON.stringify(message)}\n`);
  }

  /** A request of the child for one of the gateway's tools, answered by the running call. */
  async function answerHostRequest(
    state: Running,
    message: { request?: unknown; method?: unknown; params?: unknown },
  ): Promise<void> {
    const request = message.request;
    // A line is at most maxOutputBytes, so params are bounded too.
    if (typeof request !== 'number' || !Number.isSafeInteger(request) || request < 0) return;
    const pending = state.pending;
    if (!pending) return reply(state, request, { error: 'no call of this skill is running' });
    if (!pending.hostTools)
      return reply(state, request, { error: 'this skill may not use the gateway’s tools' });
    if (pending.hostBusy)
      return reply(state, request, { error: 'one request for a gateway tool at a time' });
    const method = typeof message.method === 'string' ? message.method.slice(0, 64) : '';
    const params =
      message.params && typeof message.params === 'object' && !Array.isArray(message.params)
        ? (message.params as Record<string, unknown>)
        : {};
    pending.hostBusy = true;
    pending.pause();
    let body: { result: string } | { error: string };
    try {
      body = { result: await pending.hostTools(method, params) };
    } catch (error) {
      body = { error: error instanceof Error ? error.message : String(error) };
    }
    pending.hostBusy = false;
    if (state.pending !== pending) return; // the call ended meanwhile (timeout, abort, crash)
    pending.resume();
    reply(state, request, body);
  }

  /** A `fetch` of the child: the gateway makes the request itself, or refuses it. */
  async function answerFetch(state: Running, request: number, params: unknown): Promise<void> {
    const pending = state.pending;
    if (!pending?.isCall)
      return reply(state, request, { error: 'no call of this skill is running' });
    const fetchFor = options.fetch;
    if (!fetchFor) return reply(state, request, { error: `skill ${skill} has no network access` });
    if (pending.fetchesRunning >= MAX_FETCHES_IN_FLIGHT) {
      refused('fetches_in_flight');
      return reply(state, request, { error: `at most ${MAX_FETCHES_IN_FLIGHT} fetches at once` });
    }
    if (pending.fetchesMade >= MAX_FETCHES_PER_CALL) {
      refused('fetches_per_call');
      return reply(state, request, { error: `at most ${MAX_FETCHES_PER_CALL} fetches per call` });
    }
    pending.fetchesRunning += 1;
    pending.fetchesMade += 1;
    let body: { result: string } | { error: string };
    try {
      const fetchParams =
        params && typeof params === 'object' && !Array.isArray(params)
          ? (params as SkillFetchParams)
          : {};
      const answer = await pending.inCallContext(() => fetchFor(fetchParams, pending.ended.signal));
      body = { result: JSON.stringify(answer) };
    } catch (error) {
      body = { error: error instanceof Error ? error.message : String(error) };
    }
    pending.fetchesRunning -= 1;
    if (state.pending !== pending) return; // the call ended meanwhile
    reply(state, request, body);
  }

  function onLine(state: Running, line: string): void {
    let message: {
      id?: unknown;
      result?: unknown;
      error?: { message?: unknown };
      request?: unknown;
      method?: unknown;
      params?: unknown;
    };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      stop(state, fail('protocol', 'the skill host wrote something that is not a JSON-RPC line'));
      return;
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      stray(state);
      return;
    }
    if (message.request !== undefined && message.id === undefined) {
      const request = message.request;
      if (typeof request !== 'number' || !Number.isSafeInteger(request) || request < 0) {
        stray(state);
        return;
      }
      if (message.method === 'fetch') void answerFetch(state, request, message.params);
      else void answerHostRequest(state, message);
      return;
    }
    const pending = state.pending;
    if (message.id === 0 && message.error) {
      stop(state, fail('load', String(message.error.message)));
      return;
    }
    if (!pending || message.id !== pending.id) {
      // An `{"event":…}` report, a `reply`, a stale or forged id: never trusted, only counted.
      stray(state);
      return;
    }
    state.pending = null;
    if (message.error) pending.reject(fail('tool', String(message.error.message)));
    else pending.resolve(message.result);
  }

  function spawnChild(): Running {
    const state: Running = {
      link: undefined as unknown as HostLink,
      pending: null,
      stdout: [],
      stdoutBytes: 0,
      stderr: '',
      exited: false,
      violations: 0,
      violationsLogged: 0,
      strayLines: 0,
    };
    const events: HostLinkEvents = {
      stdout(chunk) {
        if (running !== state) return; // stopped: what it still wrote is nobody's answer
        let start = 0;
        for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, start)) {
          state.stdout.push(chunk.subarray(start, index));
          const line = Buffer.concat(state.stdout);
          state.stdout = [];
          state.stdoutBytes = 0;
          start = index + 1;
          if (line.length > limits.maxOutputBytes) {
            refused('answer_bytes');
            stop(state, fail('output', `the answer exceeds ${limits.maxOutputBytes} bytes`));
            return;
          }
          onLine(state, line.toString('utf8'));
          if (running !== state) return;
        }
        state.stdout.push(chunk.subarray(start));
        state.stdoutBytes += chunk.length - start;
        if (state.stdoutBytes > limits.maxOutputBytes) {
          refused('answer_bytes');
          stop(state, fail('output', `the answer exceeds ${limits.maxOutputBytes} bytes`));
        }
      },
      stderr(text) {
        state.stderr = (state.stderr + text).slice(-limits.maxStderrBytes);
      },
      failed(message) {
        state.exited = true;
        stop(state, fail('crashed', message));
      },
      exit(how) {
        state.exited = true;
        const limit = options.guard?.explainExit(how);
        if (limit) return exceed(state, limit);
        const tail = state.stderr.trim().split('\n').slice(-5).join('\n');
        stop(state, fail('crashed', `the skill host stopped (${how})${tail ? `: ${tail}` : ''}`));
        logger.debug({ skill, how }, 'skill host exited');
      },
    };
    state.link = options.connect(events);
    state.unwatch = options.guard?.watch({
      pid: state.link.pid,
      // While the gateway answers its request for a gateway tool, the skill has nothing to do.
      busy: () => state.pending !== null && !state.pending.hostBusy,
      exceeded: (reason) => exceed(state, reason),
    });
    return state;
  }

  function request(
    method: string,
    params: unknown,
    timeoutMs: number,
    signal?: AbortSignal,
    hostTools?: HostToolCall,
  ): Promise<unknown> {
    if (closed) return Promise.reject(fail('closed', 'the skill host is closed'));
    if (!running) {
      const over = options.guard?.checkData();
      if (over) {
        options.onLimit?.(over);
        return Promise.reject(fail('limit', `the skill host was not started: ${over}`));
      }
      running = spawnChild();
      options.onRunning?.(true);
    }
    const state = running;
    const id = nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const onTimeout = (): void =>
        stop(state, fail('timeout', `the call took longer than ${timeoutMs} ms and was stopped`));
      let remaining = timeoutMs;
      let startedAt = Date.now();
      let timer: NodeJS.Timeout | undefined = setTimeout(onTimeout, remaining);
      const onAbort = (): void => stop(state, fail('aborted', 'the call was cancelled'));
      signal?.addEventListener('abort', onAbort, { once: true });
      const ended = new AbortController();
      const settle = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        ended.abort();
        logViolations(state);
      };
      state.pending = {
        id,
        resolve: (value) => (settle(), resolve(value)),
        reject: (error) => (settle(), reject(error)),
        hostTools,
        hostBusy: false,
        pause: () => {
          clearTimeout(timer);
          timer = undefined;
          remaining -= Date.now() - startedAt;
        },
        resume: () => {
          startedAt = Date.now();
          timer = setTimeout(onTimeout, Math.max(0, remaining));
        },
        inCallContext: AsyncLocalStorage.snapshot(),
        ended,
        isCall: method === 'call',
        fetchesRunning: 0,
        fetchesMade: 0,
      };
      state.strayLines = 0;
      if (signal?.aborted) onAbort();
      else send(state, `${JSON.stringify({ id, method, params })}\n`);
    });
  }

  /** Runs one request after the ones before it settled. */
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const result = queue.then(work, work);
    queue = result.catch(() => undefined);
    return result;
  }

  /** After the last call settles: stop the child if nothing calls within idleMs. */
  function armIdle(): void {
    clearTimeout(idleTimer);
    if (limits.idleMs <= 0 || closed || active > 0 || !running) return;
    idleTimer = setTimeout(() => {
      const state = running;
      if (!state || active > 0 || state.pending) return;
      logger.debug({ skill, idleMs: limits.idleMs }, 'skill host stopped after being idle');
      stop(state, fail('closed', 'the skill host was idle and stopped'));
    }, limits.idleMs);
    idleTimer.unref();
  }

  /** Counts a call from the moment it is made until it settles. */
  async function counted<T>(work: () => Promise<T>): Promise<T> {
    active += 1;
    clearTimeout(idleTimer);
    try {
      return await work();
    } finally {
      active -= 1;
      armIdle();
    }
  }

  const listed = await counted(() =>
    serial(() => request('tools', undefined, limits.startTimeoutMs)),
  );
  const tools = Array.isArray(listed) ? (listed as SkillToolSpec[]) : [];
  if (tools.length > limits.maxTools) {
    refused('tools_listed');
    closed = true;
    clearTimeout(idleTimer);
    const state = running as Running | null;
    if (state) stop(state, fail('closed', 'the skill host is closed'));
    throw fail(
      'load',
      `the skill lists ${tools.length} tools; at most ${limits.maxTools} are taken`,
    );
  }

  return {
    tools,
    call(tool, args, callOptions) {
      if (callOptions?.signal?.aborted) {
        return Promise.reject(fail('aborted', 'the call was cancelled'));
      }
      return counted(() =>
        serial(async () => {
          const timeoutMs = callOptions?.timeoutMs ?? limits.callTimeoutMs;
          let result: unknown;
          try {
            result = await request(
              'call',
              { tool, args },
              timeoutMs,
              callOptions?.signal,
              callOptions?.hostTools,
            );
          } finally {
            // After every call, answered or failed: the data folder within its quota.
            const over = running ? options.guard?.checkData() : null;
            if (over && running) {
              exceed(running, over);
              // eslint-disable-next-line no-unsafe-finally
              throw fail('limit', `the skill host was stopped: ${over}`);
            }
          }
          return typeof result === 'string' ? result : JSON.stringify(result ?? '');
        }),
      );
    },
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      const state = running;
      if (!state) return;
      const exited = new Promise<void>((resolve) => {
        if (state.exited) resolve();
        else state.link.exited.then(resolve, resolve);
      });
      stop(state, fail('closed', 'the skill host is closed'));
      await exited;
    },
  };
}
