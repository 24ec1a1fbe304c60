import { Worker } from 'node:worker_threads';
import type {
  JsonSchema,
  SchemaThreadReady,
  SchemaThreadReply,
  SchemaThreadRequest,
  SchemaVerdict,
} from './verdict.ts';

export type { JsonSchema, SchemaVerdict };

export interface SchemaCheckerOptions {
  /** How long one compile or check may take on the thread; longer is `refused`. */
  timeoutMs: number;
  /** The thread (ajv and its ~130 modules, ~20 MB) is stopped after this long unused. */
  idleMs?: number;
  /** The thread's heap; a check that needs more fails (`refused`), the gateway does not. */
  maxHeapMb?: number;
  /**
   * How long a new thread may take to load ajv (a busy machine can take seconds); the deadline
   * of the job waiting for it starts once it is loaded.
   */
  startTimeoutMs?: number;
  /** Where `timeoutMs` is set, named in the message of a check cut short. */
  timeoutSetting?: string;
}

/** Checks that were cut: over the deadline, or the thread failed under them. */
export interface SchemaCheckCounts {
  timed_out: number;
  failed: number;
}

export interface SchemaChecker {
  /** Compiles `schema` (a tool being registered): `valid` when calls can be checked against it. */
  prepare(schema: JsonSchema): Promise<SchemaVerdict>;
  /** Checks `data` against `schema`. */
  validate(schema: JsonSchema, data: unknown): Promise<SchemaVerdict>;
  counts(): SchemaCheckCounts;
  readonly timeoutMs: number;
  close(): Promise<void>;
}

interface Job {
  op: SchemaThreadRequest['op'];
  schema: JsonSchema;
  data?: unknown;
  resolve: (verdict: SchemaVerdict) => void;
}

/**
 * Third-party JSON Schemas (an external MCP server's, a hub package's) are compiled and checked
 * on a worker thread, never on the gateway's event loop, one job at a time: each gets the whole
 * `timeoutMs` of the thread's time, and one that takes longer is `refused` and its thread
 * replaced (the jobs behind it go to the new one). Patterns run on RE2 and `uniqueItems` is
 * hashed there, so a deadline is only the last line: the known ways a schema stalls ajv
 * (exponential backtracking, quadratic uniqueness) take linear time.
 */
export function createSchemaChecker(options: SchemaCheckerOptions): SchemaChecker {
  const { timeoutMs } = options;
  const idleMs = options.idleMs ?? 60_000;
  const maxHeapMb = options.maxHeapMb ?? 256;
  const startTimeoutMs = options.startTimeoutMs ?? Math.max(30_000, timeoutMs);
  const setting = options.timeoutSetting === undefined ? '' : ` (${options.timeoutSetting})`;
  const queue: Job[] = [];
  /** Identity of each schema object: the thread keeps its compiled form under this key. */
  const keys = new WeakMap<object, number>();
  let nextKey = 0;
  let nextId = 0;
  let worker: Worker | undefined;
  /** Whether `worker` has loaded its modules. */
  let ready = false;
  let running: { id: number; job: Job; thread: Worker; timer?: NodeJS.Timeout } | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const counts: SchemaCheckCounts = { timed_out: 0, failed: 0 };

  const keyOf = (schema: JsonSchema): number => {
    let key = keys.get(schema);
    if (key === undefined) {
      key = nextKey++;
      keys.set(schema, key);
    }
    return key;
  };

  function finish(verdict: SchemaVerdict): void {
    const current = running;
    if (!current) return;
    running = undefined;
    clearTimeout(current.timer);
    current.job.resolve(verdict);
    pump();
  }

  /** Stops `thread`; the job it was running (if any) gets `verdict`. */
  function discard(thread: Worker, verdict: SchemaVerdict): void {
    if (worker !== thread) return;
    worker = undefined;
    void thread.terminate();
    finish(verdict);
  }

  /** The running job's deadline, from the moment its thread can work on it. */
  function arm(): void {
    const current = running;
    if (!current || current.timer || !ready) return;
    current.timer = setTimeout(() => {
      counts.timed_out += 1;
      discard(current.thread, {
        kind: 'refused',
        message: `the schema check took over ${timeoutMs} ms${setting}`,
      });
    }, timeoutMs);
    current.timer.unref();
  }

  function start(): Worker {
    const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
    const thread = new Worker(new URL(`./schema-thread.${extension}`, import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
    });
    thread.unref();
    ready = false;
    const starting = setTimeout(() => {
      counts.failed += 1;
      discard(thread, {
        kind: 'refused',
        message: `the schema check thread did not start within ${startTimeoutMs} ms`,
      });
    }, startTimeoutMs);
    starting.unref();
    thread.on('message', (message: SchemaThreadReply | SchemaThreadReady) => {
      if (worker !== thread) return;
      if ('ready' in message) {
        clearTimeout(starting);
        ready = true;
        arm();
      } else if (running?.id === message.id) {
        finish(message.verdict);
      }
    });
    thread.once('exit', () => clearTimeout(starting));
    thread.on('error', (error: Error) => {
      counts.failed += 1;
      discard(thread, { kind: 'refused', message: `the schema check failed: ${error.message}` });
    });
    thread.on('exit', () => {
      if (worker !== thread) return;
      counts.failed += 1;
      discard(thread, { kind: 'refused', message: 'the schema check stopped' });
    });
    return thread;
  }

  function pump(): void {
    if (running || closed) return;
    const job = queue.shift();
    if (!job) {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        const thread = worker;
        worker = undefined;
        void thread?.terminate();
      }, idleMs);
      idleTimer.unref();
      return;
    }
    clearTimeout(idleTimer);
    worker ??= start();
    const thread = worker;
    const id = nextId++;
    running = { id, job, thread };
    arm();
    try {
      const request: SchemaThreadRequest = {
        id,
        op: job.op,
        key: keyOf(job.schema),
        schema: job.schema,
        ...(job.op === 'validate' ? { json: JSON.stringify(job.data) ?? 'null' } : {}),
      };
      thread.postMessage(request);
    } catch (error) {
      // Something in the data or schema is no JSON (arguments and results never hold such).
      finish({
        kind: 'refused',
        message: `it cannot be checked: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }

  function enqueue(job: Omit<Job, 'resolve'>): Promise<SchemaVerdict> {
    if (closed)
      return Promise.resolve({ kind: 'refused', message: 'the gateway is shutting down' });
    return new Promise((resolve) => {
      queue.push({ ...job, resolve });
      pump();
    });
  }

  return {
    prepare: (schema) => enqueue({ op: 'prepare', schema }),
    validate: (schema, data) => enqueue({ op: 'validate', schema, data }),
    counts: () => ({ ...counts }),
    timeoutMs,
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      const thread = worker;
      worker = undefined;
      if (running) finish({ kind: 'refused', message: 'the gateway is shutting down' });
      for (const job of queue.splice(0))
        job.resolve({ kind: 'refused', message: 'the gateway is shutting down' });
      await thread?.terminate();
    },
  };
}
