/**
 * A skill's tool result is untrusted content: after it, in the same turn, a skill's own shell
 * request for an allowlisted command (and the shell tool's) is prompted, naming the result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { waitForPending, approvalDecisions } from '../testing/gateway/approval-polling.ts';

/** A skill declaring the shell capability (as in skill-capabilities.test.ts). */
const OPS = [
  "import { shell } from 'hearth:skill';",
  '',
  "export const capabilities = ['shell'];",
  '',
  '/**',
  ' * Runs a command for the user.',
  ' * @param {string} command',
  ' */',
  'export async function run(command) {',
  '  const answer = await shell(command);',
  '  return `the skill saw: ${answer}`;',
  '}',
  '',
].join('\n');

const runs = (command: string) => ({ toolCalls: [{ name: 'ops_run', arguments: { command } }] });

describe('a skill’s result taints the turn', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed(undefined, {
      processEnv: { PATH: '/usr/local/bin:/usr/bin:/bin' },
    });
    expect((await bed.post('/skills', { name: 'ops', code: OPS })).status).toBe(201);
    expect((await bed.post('/approvals/allowlist', { pattern: 'echo' })).status).toBe(200);
  }, 30_000);
  afterAll(async () => {
    await bed?.close();
  });

  it('the first skill call of a clean turn runs its allowlisted command; the second is prompted', async () => {
    const before = await approvalDecisions(bed);
    bed.fake.reply(runs('echo one'), runs('echo two'), { text: 'done' });
    const turn = bed.post('/chat', { message: 'run both', session_id: 'skill-taint' });
    const waiting = await waitForPending(bed, 'echo two', 15_000);
    expect(waiting).toMatchObject({
      tool_name: 'shell (skill ops)',
      untrusted_sources: [
        { kind: 'skill', name: 'ops_run', excerpt: 'the skill saw: exit code 0 stdout: one' },
      ],
    });
    await bed.post(`/approvals/${waiting.id}/approve`, {});
    expect((await turn).body.reply).toBe('done');
    // `echo one` ran at once in the clean part of the turn; `echo two` was asked.
    const after = await approvalDecisions(bed);
    const delta = (label: string) => (after[label] ?? 0) - (before[label] ?? 0);
    expect([delta('decision=auto_approved'), delta('decision=prompted')]).toEqual([1, 1]);
  });
});
