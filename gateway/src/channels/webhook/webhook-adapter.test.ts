import { silentLogger } from '../../observability/logger.ts';
import { channelSchema } from '../../config/schema.ts';
import { describe, expect, it } from 'vitest';
import { recordingLink, runChannelConformance } from '../conformance.ts';
import { startCallbackServer } from '../testing/callback-server.ts';
import { signedHeaders } from './signature.ts';
import { createWebhookAdapter } from './webhook-adapter.ts';

const SECRET = 'conformance-secret';

runChannelConformance(
  'webhook',
  async () => {
    const callback = await startCallbackServer(SECRET);
    const config = channelSchema.parse({
      type: 'webhook',
      signing_secret: SECRET,
      callback_url: callback.url,
    });
    if (config.type !== 'webhook') throw new Error('unreachable');
    const adapter = createWebhookAdapter(config, {
      fetch: globalThis.fetch,
      now: Date.now,
      logger: silentLogger(),
    });
    const webhook = adapter.webhook?.bind(adapter);
    if (!webhook) throw new Error('the adapter takes webhooks');
    const post = (body: string, headers: Record<string, string>) =>
      webhook({ method: 'POST', headers, query: {}, rawBody: Buffer.from(body) });
    return {
      adapter,
      async inbound({ senderId, text }) {
        const body = JSON.stringify({ sender: senderId, text });
        await post(body, signedHeaders(SECRET, Date.now(), body));
      },
      async malformed() {
        await post('{"sender":', signedHeaders(SECRET, Date.now(), '{"sender":')).catch(
          () => undefined,
        );
        await post('{}', signedHeaders('forged', Date.now(), '{}'));
      },
      sent: () => callback.received.map((m) => ({ chatId: m.chat, text: m.text })),
      close: () => callback.close(),
    };
  },
  {
    skip: [
      { check: 'typing', reason: 'a generic webhook has no typing indicator' },
      { check: 'far end drops', reason: 'webhooks hold no connection to drop' },
    ],
  },
);

describe('a webhook delivery whose claim cannot be recorded (the database is down)', () => {
  it('is refused with 503 and nothing is handed over: the sender retries it', async () => {
    const config = channelSchema.parse({ type: 'webhook', signing_secret: SECRET });
    if (config.type !== 'webhook') throw new Error('unreachable');
    const adapter = createWebhookAdapter(config, {
      fetch: globalThis.fetch,
      now: Date.now,
      logger: silentLogger(),
    });
    const recorder = recordingLink();
    await adapter.connect({
      ...recorder.link,
      claim: () => Promise.reject(new Error('the database is unreachable')),
    });
    const body = JSON.stringify({ id: 'm-1', sender: 'ann', text: 'keep me' });
    await expect(
      adapter.webhook?.({
        method: 'POST',
        headers: signedHeaders(SECRET, Date.now(), body),
        query: {},
        rawBody: Buffer.from(body),
      }),
    ).rejects.toMatchObject({
      code: 'unavailable',
      message: 'Webhook not taken: the channel could not record it, try again',
    });
    expect(recorder.received).toEqual([]);
  });
});
