/**
 * Allowlist `arg_pattern`s run on the event loop against text the model writes, so they are
 * evaluated in linear time (RE2, via re2js): a hostile pattern plus a hostile command line cannot
 * stop the gateway, patterns RE2 cannot compile are refused with 422, and such a pattern already
 * stored is skipped (never matches) instead of breaking the gate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open-database.ts';
import type { Database, OpenDatabase } from '../db/ports.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { startTestGateway } from '../testing/gateway/test-gateway.ts';
import { DENIED_TEXT } from './approval-service.ts';

/** GET /health every 25 ms until `done` settles; the slowest answer, in ms. */
async function slowestHealthWhile(url: string, done: Promise<unknown>): Promise<number> {
  let finished = false;
  void done.finally(() => (finished = true));
  let slowest = 0;
  let probes = 0;
  while (!finished || probes === 0) {
    const started = performance.now();
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    slowest = Math.max(slowest, performance.now() - started);
    probes += 1;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return slowest;
}

describe('allowlist arg_patterns run in linear time', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed();
  });
  afterAll(() => bed.close());

  it('a catastrophic pattern against a hostile command line: /health answers within 1 s while the gate matches', async () => {
    // With a backtracking RegExp, 30 characters of this stopped every route for ~28 s.
    const added = await bed.post('/approvals/allowlist', {
      pattern: 'echo',
      arg_pattern: '^echo (a+)+$',
    });
    expect(added.status).toBe(200);
    await bed.post('/approvals/policy', { security: 'allowlist', ask: 'off' });
    const lines = [30, 5_000].map((n) => `echo ${'a'.repeat(n)} b`);
    bed.fake.reply(
      { toolCalls: lines.map((command) => ({ name: 'shell', arguments: { command } })) },
      { text: 'done' },
    );
    const started = performance.now();
    const turn = bed.post('/chat', { message: 'go', session_id: 'redos' });
    const slowest = await slowestHealthWhile(bed.gw.url, turn);
    const { body } = await turn;
    expect(body.reply).toBe('done');
    // None matched (each ends in " b"): with ask=off they are denied without a prompt.
    expect(INSPECTORS['openai-chat'].toolResults(bed.fake.requests[1]!)).toHaveLength(2);
    for (const result of INSPECTORS['openai-chat'].toolResults(bed.fake.requests[1]!)) {
      expect(result.output).toBe(DENIED_TEXT);
    }
    expect(slowest).toBeLessThan(1_000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it.each([
    ['a backreference', '^echo (a)\\1$'],
    ['a lookahead', '^git (?!push)'],
    ['a negative lookbehind', '(?<!x)y'],
    ['an unclosed group', '^git ('],
  ])(
    'POST /approvals/allowlist refuses %s with 422 naming arg_pattern, and stores nothing',
    async (_what, argPattern) => {
      const before = (await bed.get('/approvals/allowlist')).body.count;
      const refused = await bed.post('/approvals/allowlist', {
        pattern: 'git',
        arg_pattern: argPattern,
      });
      expect(refused.status).toBe(422);
      expect(String(refused.body.detail)).toMatch(/arg_pattern.*must be an RE2 regular expression/);
      expect((await bed.get('/approvals/allowlist')).body.count).toBe(before);
    },
  );
});

describe('an allowlist row stored before RE2 that it cannot compile', () => {
  it('never matches and does not break the gate (the command is decided by the policy)', async () => {
    const seeded: OpenDatabase = async (location) => {
      const db: Database = await openDatabase(location);
      await db.allowlist.add({ pattern: 'echo', arg_pattern: '^echo (a)\\1$' });
      await db.allowlist.add({ pattern: 'echo', arg_pattern: '^echo ok$' });
      return db;
    };
    const gw = await startTestGateway({ openDatabase: seeded });
    try {
      await gw.gateway.whenReady();
      const gate = gw.gateway.approvals();
      const request = {
        toolName: 'shell',
        arguments: { command: '', timeout: 60, workdir: '' },
        sessionId: 'legacy',
      };
      const policy = await fetch(`${gw.url}/api/v1/approvals/policy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ask: 'off' }),
      });
      expect(policy.status).toBe(200);
      expect(await gate.gate({ ...request, command: 'echo aa' })).toMatchObject({
        allowed: false,
        outcome: 'denied_silently',
      });
      expect(await gate.gate({ ...request, command: 'echo ok' })).toEqual({
        allowed: true,
        outcome: 'auto_approved',
      });
      const listed = await fetch(`${gw.url}/api/v1/approvals/allowlist`);
      expect(((await listed.json()) as { count: number }).count).toBe(2);
    } finally {
      await gw.close();
    }
  });
});
