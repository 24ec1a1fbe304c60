import { silentLogger } from '../../observability/logger.ts';
import { channelSchema } from '../../config/schema.ts';
import { runChannelConformance } from '../conformance.ts';
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
