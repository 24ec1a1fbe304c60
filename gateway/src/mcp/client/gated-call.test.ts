/**
 * An external MCP server's tools run behind the gateway's one approval gate, in a chat turn:
 * the policy applies, a prompted call waits for the decision, a denial gives the model the
 * gate's text, and an allowlist entry `mcp:<server>/<tool>` lets exactly that tool through.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DENIED_TEXT, type PendingApproval } from '../../approvals/approval-service.ts';
import { INSPECTORS } from '../../testing/fakes/fake-llm/inspect.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { connected, FAST_TIMING, send, stdioEntry, until } from '../testing/mcp-test-bed.ts';

describe('external MCP tools behind the approval gate', { timeout: 120_000 }, () => {
  let bed: ChatTestBed;

  const lastToolResults = () =>
    INSPECTORS['openai-chat'].toolResults(bed.fake.requests.at(-1)!).map((r) => r.output);

  const waitForPending = () =>
    until(
      'an approval pending',
      async () => (await send(bed, 'GET', '/approvals/pending')).body.pending as PendingApproval[],
      (pending) => pending.length > 0,
    ).then((pending) => pending[0]!);

  beforeAll(async () => {
    bed = await startChatTestBed(undefined, {
      config: { mcp: { servers: [stdioEntry('fx')] } },
      mcpTiming: FAST_TIMING,
    });
    await connected(bed, 'fx');
  }, 180_000);

  beforeEach(() => bed.fake.reset());

  afterAll(async () => {
    await bed.close();
  });

  it('waits for approval; approved, the tool runs and the model gets its result', async () => {
    bed.fake.reply(
      { toolCalls: [{ name: 'fx__echo', arguments: { text: "it's me" } }] },
      { text: 'Done.' },
    );
    const turn = bed.post('/chat', { message: 'echo', session_id: 'gated-mcp' });
    const pending = await waitForPending();
    expect(pending).toMatchObject({
      tool_name: 'fx__echo',
      command: `mcp:fx/echo '{"text":"it'\\''s me"}'`,
      session_id: 'gated-mcp',
    });
    await send(bed, 'POST', `/approvals/${pending.id}/approve`, {});
    expect((await turn).body.reply).toBe('Done.');
    expect(lastToolResults()).toEqual(["echo: it's me"]);
  });

  it('denied, the tool does not run and the model gets the gate’s text', async () => {
    bed.fake.reply({ toolCalls: [{ name: 'fx__crash', arguments: {} }] }, { text: 'Not run.' });
    const turn = bed.post('/chat', { message: 'crash it', session_id: 'gated-mcp' });
    const pending = await waitForPending();
    await send(bed, 'POST', `/approvals/${pending.id}/deny`, {});
    expect((await turn).body.reply).toBe('Not run.');
    expect(lastToolResults()).toEqual([DENIED_TEXT]);
    expect((await send(bed, 'GET', '/mcp/servers/fx')).body.state).toBe('connected');
  });

  it('an allowlisted tool is still prompted while the server’s descriptions are in the turn', async () => {
    const added = await send(bed, 'POST', '/approvals/allowlist', { pattern: 'mcp:fx/add' });
    expect(added.status).toBe(200);
    bed.fake.reply({ toolCalls: [{ name: 'fx__add', arguments: { a: 1, b: 2 } }] }, { text: '3' });
    // A session of its own: 'gated-mcp' holds earlier MCP results in its history by now.
    const turn = bed.post('/chat', { message: 'add', session_id: 'allowlisted-mcp' });
    const pending = await waitForPending();
    expect(pending.tool_name).toBe('fx__add');
    expect(pending.untrusted_sources?.length).toBeGreaterThan(0);
    for (const source of pending.untrusted_sources ?? [])
      expect(source).toMatchObject({ kind: 'tool_description' });
    await send(bed, 'POST', `/approvals/${pending.id}/approve`, {});
    expect((await turn).body.reply).toBe('3');
    expect(lastToolResults()).toEqual(['3']);
  });

  it('the policy applies: security "deny" refuses every call outright', async () => {
    await send(bed, 'POST', '/approvals/policy', { security: 'deny' });
    try {
      bed.fake.reply(
        { toolCalls: [{ name: 'fx__add', arguments: { a: 1, b: 1 } }] },
        { text: 'no' },
      );
      await bed.post('/chat', { message: 'add', session_id: 'gated-mcp' });
      expect(lastToolResults()).toEqual([DENIED_TEXT]);
    } finally {
      await send(bed, 'POST', '/approvals/policy', { security: 'allowlist' });
    }
  });

  it('rejects allowlist patterns with a slash that are not mcp:<server>/<tool>', async () => {
    for (const pattern of ['bin/ls', 'mcp:/echo', 'mcp:fx/', 'mcp:fx/a/b', 'mcp:fx/echo x']) {
      const res = await send(bed, 'POST', '/approvals/allowlist', { pattern });
      expect(res.status, pattern).toBe(422);
    }
  });
});

describe(
  'an allowlisted external MCP tool with untrusted_content = "trust"',
  { timeout: 120_000 },
  () => {
    let bed: ChatTestBed;

    const lastToolResults = () =>
      INSPECTORS['openai-chat'].toolResults(bed.fake.requests.at(-1)!).map((r) => r.output);

    beforeAll(async () => {
      bed = await startChatTestBed(undefined, {
        config: {
          mcp: { servers: [stdioEntry('fx')] },
          security: { untrusted_content: 'trust' },
        },
        mcpTiming: FAST_TIMING,
      });
      await connected(bed, 'fx');
    }, 180_000);

    beforeEach(() => bed.fake.reset());

    afterAll(async () => {
      await bed.close();
    });

    it('an allowlist entry mcp:<server>/<tool> lets that tool run without asking, and only it', async () => {
      const added = await send(bed, 'POST', '/approvals/allowlist', { pattern: 'mcp:fx/add' });
      expect(added.status).toBe(200);
      bed.fake.reply(
        { toolCalls: [{ name: 'fx__add', arguments: { a: 1, b: 2 } }] },
        { text: '3' },
      );
      expect(
        (await bed.post('/chat', { message: 'add', session_id: 'gated-mcp' })).body.reply,
      ).toBe('3');
      expect(lastToolResults()).toEqual(['3']);

      bed.fake.reply(
        { toolCalls: [{ name: 'fx__echo', arguments: { text: 'x' } }] },
        { text: 'ok' },
      );
      const turn = bed.post('/chat', { message: 'echo', session_id: 'gated-mcp' });
      const pending = await until(
        'an approval pending',
        async () =>
          (await send(bed, 'GET', '/approvals/pending')).body.pending as PendingApproval[],
        (list) => list.length > 0,
      );
      expect(pending[0]?.tool_name).toBe('fx__echo');
      await send(bed, 'POST', `/approvals/${pending[0]!.id}/deny`, {});
      await turn;
    });
  },
);
