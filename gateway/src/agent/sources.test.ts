/**
 * Pages a provider's own web search cited reach the user: `sources` on the REST reply, the
 * SSE and both WebSocket `message_done` frames; absent when nothing was searched.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import type { ScriptedWebSearch } from '../testing/fakes/fake-llm/script.ts';

const SEARCH: ScriptedWebSearch = {
  query: 'hearth release',
  results: [
    { url: 'https://example.org/hearth/releases', title: 'Hearth releases' },
    { url: 'https://example.com/news/hearth', title: 'Hearth news' },
  ],
};
const SOURCES = SEARCH.results.map(({ url, title }) => ({ url, title }));

/** Sends one frame on a fresh socket and resolves with the first message_done frame. */
async function doneFrame(url: string, frames: unknown[]): Promise<Record<string, unknown>> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const done = new Promise<Record<string, unknown>>((resolve) =>
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      if (frame.type === 'message_done') resolve(frame);
    }),
  );
  for (const frame of frames) socket.send(JSON.stringify(frame));
  const frame = await done;
  socket.close();
  return frame;
}

describe('web search sources in chat replies', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed(
      { primary: 'claude-sonnet-4-5', fallback: '', fast: '', local: 'ollama/llama3.2' },
      { config: { models: { web_search_enabled: true } } },
    );
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.reset());

  it('REST: lists each cited page once; no sources key without a search', async () => {
    bed.fake.reply({ webSearch: SEARCH, text: 'Hearth 2.1 is out.' });
    const searched = await bed.post('/chat', { message: 'what is new in hearth?' });
    expect(searched.status).toBe(200);
    expect(searched.body.sources).toEqual(SOURCES);

    bed.fake.reply({ text: 'Hello.' });
    const plain = await bed.post('/chat', { message: 'hello' });
    expect(plain.status).toBe(200);
    expect('sources' in plain.body).toBe(false);
  });

  it('SSE: message_done carries the sources', async () => {
    bed.fake.reply({ webSearch: SEARCH, text: 'Hearth 2.1 is out.' });
    const res = await fetch(`${bed.gw.url}/api/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'news?', stream: true }),
    });
    const text = await res.text();
    const done = text
      .split('\n\n')
      .find((block) => block.startsWith('event: message_done'))
      ?.split('\n')
      .find((line) => line.startsWith('data: '));
    expect(JSON.parse(done?.slice(6) ?? '{}')).toMatchObject({ sources: SOURCES });
  });

  it('WebSocket: both message_done forms carry the sources', async () => {
    const base = `ws://127.0.0.1:${bed.gw.port}`;
    bed.fake.reply({ webSearch: SEARCH, text: 'Hearth 2.1 is out.' });
    expect(
      await doneFrame(`${base}/ws`, [{ type: 'chat', message: 'news?', session_id: 'src-a' }]),
    ).toMatchObject({ type: 'message_done', text: 'Hearth 2.1 is out.', sources: SOURCES });

    bed.fake.reply({ webSearch: SEARCH, text: 'Hearth 2.1 is out.' });
    expect(
      await doneFrame(`${base}/ws/chat`, [
        { type: 'hello', session_id: 'src-b' },
        { type: 'message', content: 'news?' },
      ]),
    ).toMatchObject({ type: 'message_done', session_id: 'src-b', sources: SOURCES });
  });
});
