/**
 * "Installing registers the package's tools with the live agent": a hub package's tool is
 * offered to the model and answers from the isolated host in the next chat turn; disabled or
 * uninstalled, it is offered no more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';

const GREET = [
  '/**',
  ' * Greets someone by name.',
  ' * @param {string} who - the name',
  ' */',
  'export function greet(who) {',
  '  return `hello ${who} from a hub package`;',
  '}',
  '',
].join('\n');
const dataUrl = `data:text/javascript;base64,${Buffer.from(GREET).toString('base64')}`;

const toolResults = (request: RecordedRequest | undefined): string[] =>
  request ? INSPECTORS['openai-chat'].toolResults(request).map((r) => r.output) : [];
const toolNamesSent = (request: RecordedRequest | undefined): string[] =>
  ((request?.body as { tools?: { function: { name: string } }[] } | undefined)?.tools ?? []).map(
    (tool) => tool.function.name,
  );

describe('hub packages in a chat turn', () => {
  let bed: ChatTestBed;
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${bed.gw.url}/api/v1${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    bed = await startChatTestBed();
    await bed.gw.gateway.whenReady();
  }, 30_000);
  afterAll(async () => {
    await bed?.close();
  });

  it('the installed tool answers in the next turn; disabled or removed, it is not offered', async () => {
    const installed = await bed.post('/hub/install', { name: 'hello', url: dataUrl });
    expect(installed.status).toBe(200);

    bed.fake.reply(
      { toolCalls: [{ name: 'hello_greet', arguments: { who: 'Ada' } }] },
      { text: 'done' },
    );
    expect((await bed.post('/chat', { message: 'greet Ada', session_id: 'hub-1' })).status).toBe(
      200,
    );
    expect(toolNamesSent(bed.fake.requests[0])).toContain('hello_greet');
    expect(toolResults(bed.fake.requests[1])).toEqual(['hello Ada from a hub package']);

    expect((await send('PATCH', '/hub/hello', { enabled: false })).status).toBe(200);
    bed.fake.reset();
    bed.fake.reply({ text: 'ok' });
    await bed.post('/chat', { message: 'hi', session_id: 'hub-2' });
    expect(toolNamesSent(bed.fake.requests[0])).not.toContain('hello_greet');

    expect((await send('DELETE', '/hub/hello')).status).toBe(200);
    bed.fake.reset();
    bed.fake.reply({ text: 'ok' });
    await bed.post('/chat', { message: 'hi', session_id: 'hub-3' });
    expect(toolNamesSent(bed.fake.requests[0])).not.toContain('hello_greet');
  }, 30_000);
});
