/**
 * A hostile skill over a resource limit, seen from outside: the chat turn's tool result names
 * the limit, the skill is left in state `error` with the reason in `load_error` and its tools
 * gone, and `/status` `skill_limits` lists the limits and the skill stopped.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

type Json = Record<string, unknown>;

const HOG = `
const kept = [];

/** Allocates 1 GB of Buffers, a chunk at a time, and holds them. */
export async function hoard() {
  for (let index = 0; index < 64; index += 1) {
    try {
      kept.push(Buffer.alloc(16 * 1024 * 1024, 1));
    } catch {
      // refused by the address-space limit
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return 'kept ' + kept.length;
}
`;

const SPINNER = `
/** Answers at once and leaves a loop burning a core. */
export function answer() {
  setTimeout(() => {
    for (;;) {}
  }, 50);
  return 'answered';
}
`;

const toolResults = (request: RecordedRequest | undefined): string[] =>
  request ? INSPECTORS['openai-chat'].toolResults(request).map((r) => r.output) : [];

describe('a skill over its resource limits, over HTTP', () => {
  let bed: ChatTestBed;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${bed.gw.url}/api/v1${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const backends = async () =>
    ((await call('GET', '/status')).body as { backends: Record<string, string> }).backends;
  /** The skill's entry once it left state `active`. */
  const stopped = async (name: string, ms: number): Promise<Json> => {
    const until = Date.now() + ms;
    for (;;) {
      const entry = (await call('GET', `/skills/${name}`)).body;
      if (entry.state !== 'active' || Date.now() > until) return entry;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    bed = await startChatTestBed(undefined, { config: { skills: { host_memory_mb: 96 } } });
  }, 30_000);
  afterAll(async () => {
    await bed?.close();
  });
  afterEach(async () => {
    bed.fake.reset();
    const { skills } = (await call('GET', '/skills')).body as { skills: Json[] };
    for (const skill of skills) await call('DELETE', `/skills/${skill.name as string}`);
  });

  it('/status names the limits skill hosts run under', async () => {
    expect((await backends()).skill_limits).toBe(
      'memory 96 MB, cpu 600 s per host, idle cpu 50% for 5 s, 256 open files, files 64 MB, data 256 MB, 64 threads',
    );
  });

  it('a skill holding 1 GB of Buffers: the tool result names the memory limit, the skill is stopped', async () => {
    expect((await call('POST', '/skills', { name: 'hog', code: HOG })).status).toBe(201);
    bed.fake.reply({ toolCalls: [{ name: 'hog_hoard', arguments: {} }] }, { text: 'done' });
    const turn = await call('POST', '/chat', { message: 'hoard', session_id: 'limits-1' });
    expect(turn.status).toBe(200);
    const [result] = toolResults(bed.fake.requests[1]);
    expect(result).toMatch(
      /skill hog: the skill host was stopped: it used \d+ MB of memory, over its 96 MB limit \(\[skills\] host_memory_mb\)/,
    );

    const entry = await stopped('hog', 5_000);
    expect(entry).toMatchObject({ state: 'error', tools: [] });
    expect(entry.load_error).toMatch(
      /^stopped over a resource limit: it used \d+ MB of memory, over its 96 MB limit/,
    );
    expect((await backends()).skill_limits).toMatch(
      /^memory 96 MB, .*; stopped: hog \(it used \d+ MB of memory, over its 96 MB limit/,
    );
    expect((await backends()).skills).toMatch(/; 0 skill hosts running$/);

    // Loaded again on request (a reload, a new write or a restart): active until the next time.
    expect((await call('POST', '/plugins/reload')).status).toBe(200);
    expect((await call('GET', '/skills/hog')).body).toMatchObject({
      state: 'active',
      load_error: null,
      tools: ['hog_hoard'],
    });
  });

  it('a skill that keeps a core busy after its tool returned is stopped and reported', async () => {
    expect((await call('POST', '/skills', { name: 'spinner', code: SPINNER })).status).toBe(201);
    bed.fake.reply({ toolCalls: [{ name: 'spinner_answer', arguments: {} }] }, { text: 'done' });
    const turn = await call('POST', '/chat', { message: 'answer', session_id: 'limits-2' });
    expect(turn.status).toBe(200);
    expect(toolResults(bed.fake.requests[1])).toEqual(['answered']);

    const entry = await stopped('spinner', 15_000);
    expect(entry).toMatchObject({ state: 'error', tools: [] });
    expect(entry.load_error).toMatch(
      /^stopped over a resource limit: it kept using \d+% of a CPU for \d+ s with no call running/,
    );
    expect((await backends()).skill_limits).toMatch(/stopped: spinner \(it kept using/);
    expect((await backends()).skills).toMatch(/; 0 skill hosts running$/);
  }, 20_000);
});
