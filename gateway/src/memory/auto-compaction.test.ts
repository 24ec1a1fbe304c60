/**
 * Rule 6, through REST: "After a turn's reply is sent, when a session's estimated token usage
 * exceeds 50% of the context window, the history is summarised. The summary replaces the
 * in-memory history and is persisted to long-term storage. It runs in the background, never
 * delays the reply, and failures are logged and swallowed." (That it never delays the reply is
 * shown in compaction.test.ts, where the summary can be held back.)
 *
 * The bed's model is the local runtime (`ollama/llama3.2`, an 8,192-token window): half of it is
 * 4,096 tokens, about 16,000 characters at Hearth's four characters per token.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { SUMMARY_PROMPT } from './summarise.ts';

const LOCAL = { primary: 'ollama/llama3.2', fallback: '', fast: '', local: 'ollama/llama3.2' };
/** About 5,000 tokens: past half the window on its own. */
const LONG = `${'the lighthouse keeper logs the weather '.repeat(520)}end of log`;

const systemOf = (request: RecordedRequest) =>
  INSPECTORS[request.wire as keyof typeof INSPECTORS].system(request);
/** The conversation sent with a request: its messages other than the system prompt. */
const historyOf = (request: RecordedRequest) =>
  (request.body as { messages: { role: string }[] }).messages.filter((m) => m.role !== 'system');
const isSummary = (request: RecordedRequest) => systemOf(request) === SUMMARY_PROMPT;

async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('auto-compaction after a chat turn', () => {
  let bed: ChatTestBed;
  const summaries = async (sessionId: string) =>
    (await bed.get(`/memory?session_id=${sessionId}&type=summary`)).body as {
      entries: { content: string }[];
      count: number;
    };
  beforeAll(async () => {
    bed = await startChatTestBed(LOCAL);
  });
  afterAll(() => bed.close());
  beforeEach(() => bed.fake.reset());

  it('past 50% of the window: summarised after the reply, stored long-term, and it replaces the history', async () => {
    bed.fake.reply({ text: 'Logged.' }, { text: 'The keeper logged the weather at length.' });
    const turn = await bed.post('/chat', { message: LONG, session_id: 'auto-long' });
    expect(turn.status).toBe(200);
    expect(turn.body.reply).toBe('Logged.');

    await eventually(async () => (await summaries('auto-long')).count === 1);
    expect((await summaries('auto-long')).entries[0]?.content).toBe(
      'The keeper logged the weather at length.',
    );
    const summarise = bed.fake.requests.find(isSummary);
    expect(JSON.stringify(summarise?.body)).toContain('the lighthouse keeper logs the weather');

    bed.fake.reply({ text: 'The weather.' });
    await bed.post('/chat', { message: 'What did the keeper log?', session_id: 'auto-long' });
    const next = bed.fake.requests.at(-1)!;
    expect(systemOf(next)).toContain(
      '<conversation-summary>\nThe keeper logged the weather at length.\n</conversation-summary>',
    );
    // The long message itself is no longer sent as history (memory recall may still quote it).
    expect(JSON.stringify(historyOf(next))).not.toContain('end of log');
  });

  it('at or below 50%: nothing is summarised', async () => {
    bed.fake.reply({ text: 'Short.' });
    await bed.post('/chat', { message: 'a short message', session_id: 'auto-short' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bed.fake.requests.filter(isSummary)).toEqual([]);
    expect((await summaries('auto-short')).count).toBe(0);
  });

  it('a failed summary is swallowed: the history stays and the next turn is answered', async () => {
    // Every model the summary may go to fails: the configured ones and the keyed provider that
    // automatic routing tries after them.
    const boom = { error: { status: 500, message: 'boom' } };
    bed.fake.reply({ text: 'Logged once more.' }, boom, boom, boom);
    expect((await bed.post('/chat', { message: LONG, session_id: 'auto-fail' })).status).toBe(200);
    await eventually(() => Promise.resolve(bed.fake.requests.some(isSummary)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await summaries('auto-fail')).count).toBe(0);

    bed.fake.reply({ text: 'Still here.' });
    const next = await bed.post('/chat', { message: 'Are you there?', session_id: 'auto-fail' });
    expect(next).toMatchObject({ status: 200, body: { reply: 'Still here.' } });
    expect(JSON.stringify(historyOf(bed.fake.requests.at(-1)!))).toContain('end of log');
  });
});
