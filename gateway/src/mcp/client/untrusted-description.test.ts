/**
 * An external MCP server's tool descriptions are a third party's words the model reads in every
 * turn that offers its tools: such a turn is untrusted before any tool runs. A real stdio server
 * (a child process); its tools offered, an allowlisted shell command is prompted, naming them;
 * once the server is disabled, the same command runs without asking.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../approvals/ports.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import {
  connected,
  FAST_TIMING,
  FIXTURE_STDIO_SERVER,
  send,
  serverStatus,
  stdioEntry,
  toolNames,
  until,
} from '../testing/mcp-test-bed.ts';

const COMMAND = 'echo after-description';

describe(
  'an external MCP server’s tool descriptions taint the turns that offer them',
  { timeout: 120_000 },
  () => {
    let bed: ChatTestBed;

    const waitForPending = (command: string) =>
      until(
        `${command} pending`,
        async () =>
          (await send(bed, 'GET', '/approvals/pending')).body.pending as PendingApproval[],
        (pending) => pending.some((p) => p.command === command),
      ).then((pending) => pending.find((p) => p.command === command)!);

    async function decisions(): Promise<Record<string, number>> {
      const snapshot = (await send(bed, 'GET', '/metrics/snapshot')).body as Record<
        string,
        { values: Record<string, number> }
      >;
      return { ...snapshot.approval_decisions_total?.values };
    }

    beforeAll(async () => {
      bed = await startChatTestBed(undefined, {
        config: {
          mcp: {
            servers: [
              stdioEntry('fx', {
                args: [FIXTURE_STDIO_SERVER, '--poisoned-tools'],
                tools: ['echo', 'add', 'notes', 'verbose'],
              }),
            ],
          },
          // Every turn offers the server's tools (with "relevant", only the turns they fit do:
          // gateway/src/approvals/untrusted-turn.test.ts).
          tools: { selection: 'all' },
        },
        mcpTiming: FAST_TIMING,
        processEnv: { PATH: '/usr/local/bin:/usr/bin:/bin' },
      });
      await connected(bed, 'fx');
      expect((await send(bed, 'POST', '/approvals/allowlist', { pattern: 'echo' })).status).toBe(
        200,
      );
    }, 180_000);

    beforeEach(() => bed.fake.reset());

    afterAll(async () => {
      await bed.close();
    });

    it('with its tools offered, the allowlisted command is prompted, naming each description', async () => {
      // The server's other tools are not offered (`tools`), and a description that instructs the
      // model is screened out before anything is offered (fx__notes).
      expect((await toolNames(bed)).filter((name) => name.startsWith('fx__')).sort()).toEqual([
        'fx__add',
        'fx__echo',
        'fx__verbose',
      ]);
      const before = await decisions();
      bed.fake.reply(
        { toolCalls: [{ name: 'shell', arguments: { command: COMMAND } }] },
        { text: 'done' },
      );
      const turn = bed.post('/chat', { message: 'run the echo', session_id: 'offered' });
      const approval = await waitForPending(COMMAND);
      const verbose = `Explains the weather. ${'It is sunny. '.repeat(14)}`.slice(0, 199);
      expect(approval.untrusted_sources).toEqual([
        {
          kind: 'tool_description',
          name: 'fx__echo (from MCP server fx)',
          excerpt: 'Echoes its text',
        },
        {
          kind: 'tool_description',
          name: 'fx__add (from MCP server fx)',
          excerpt: 'Adds two numbers',
        },
        {
          kind: 'tool_description',
          name: 'fx__verbose (from MCP server fx)',
          excerpt: `${verbose}…`,
        },
      ]);
      await send(bed, 'POST', `/approvals/${approval.id}/approve`, {});
      expect((await turn).body.reply).toBe('done');
      const after = await decisions();
      expect((after['decision=prompted'] ?? 0) - (before['decision=prompted'] ?? 0)).toBe(1);
      expect(after['decision=auto_approved'] ?? 0).toBe(before['decision=auto_approved'] ?? 0);
      // What the turn made is not marked by the descriptions (each turn that offers them records
      // them again): the next turn names the descriptions, not an earlier part of the conversation.
      bed.fake.reply(
        { toolCalls: [{ name: 'shell', arguments: { command: COMMAND } }] },
        { text: 'done' },
      );
      const next = bed.post('/chat', { message: 'once more', session_id: 'offered' });
      const again = await waitForPending(COMMAND);
      expect(again.untrusted_sources?.map((s) => s.kind)).toEqual([
        'tool_description',
        'tool_description',
        'tool_description',
      ]);
      await send(bed, 'POST', `/approvals/${again.id}/deny`, {});
      await next;
    });

    it('once the server is disabled its tools are not offered, and the same command runs at once', async () => {
      expect((await send(bed, 'PATCH', '/mcp/servers/fx', { enabled: false })).status).toBe(200);
      await until(
        'fx tools gone',
        () => toolNames(bed),
        (names) => !names.some((n) => n.startsWith('fx__')),
      );
      expect((await serverStatus(bed, 'fx')).tool_count).toBe(0);
      const before = await decisions();
      bed.fake.reply(
        { toolCalls: [{ name: 'shell', arguments: { command: COMMAND } }] },
        { text: 'ran' },
      );
      const { body } = await bed.post('/chat', {
        message: 'run the echo',
        session_id: 'no-server',
      });
      expect(body.reply).toBe('ran');
      const after = await decisions();
      expect((after['decision=auto_approved'] ?? 0) - (before['decision=auto_approved'] ?? 0)).toBe(
        1,
      );
    });
  },
);
