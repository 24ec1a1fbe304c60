/**
 * A skill host's input over a cap, seen from outside: the chat turn's tool result names the cap
 * and `extension_input_refused_total{source="skill_host"}` counts it, by the cap's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

const LOUD = `
/** Answers far more than the answer cap (256 KiB). */
export function flood() {
  return 'x'.repeat(2_000_000);
}
`;

const toolResults = (request: RecordedRequest | undefined): string[] =>
  request ? INSPECTORS['openai-chat'].toolResults(request).map((r) => r.output) : [];

describe('a skill host over an input cap, over HTTP', () => {
  let bed: ChatTestBed;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${bed.gw.url}/api/v1${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const refusals = async () =>
    (
      (await call('GET', '/metrics/snapshot')).body as Record<
        string,
        { values: Record<string, number> }
      >
    ).extension_input_refused_total?.values ?? {};

  beforeAll(async () => {
    bed = await startChatTestBed();
  }, 30_000);
  afterAll(async () => {
    await bed?.close();
  });

  it('an answer over the cap is a tool error naming it, counted by source and cap', async () => {
    expect(await refusals()).toEqual({});
    expect((await call('POST', '/skills', { name: 'loud', code: LOUD })).status).toBe(201);
    bed.fake.reply({ toolCalls: [{ name: 'loud_flood', arguments: {} }] }, { text: 'done' });
    const turn = await call('POST', '/chat', { message: 'flood', session_id: 'input-caps-1' });
    expect(turn.status).toBe(200);
    expect(toolResults(bed.fake.requests[1])).toEqual([
      expect.stringContaining('skill loud: the answer exceeds 262144 bytes'),
    ]);
    expect(await refusals()).toEqual({ 'source=skill_host,limit=answer_bytes': 1 });
  });
});
