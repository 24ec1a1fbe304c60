import { channelSchema } from '../../config/schema.ts';
import { silentLogger } from '../../observability/logger.ts';
import { describe, expect, it } from 'vitest';
import { recordingLink, runChannelConformance } from '../conformance.ts';
import { startFakeGraph } from '../testing/fake-graph.ts';
import { createWhatsAppAdapter } from './whatsapp-adapter.ts';

const credentials = {
  token: 'EAAG-test',
  phoneNumberId: '106540352242922',
  appSecret: 'app-secret',
};

runChannelConformance(
  'whatsapp (Cloud API against a fake Graph API and signed notifications)',
  async () => {
    const graph = await startFakeGraph(credentials);
    const config = channelSchema.parse({
      type: 'whatsapp',
      access_token: credentials.token,
      app_secret: credentials.appSecret,
      verify_token: 'verify-me',
      phone_number_id: credentials.phoneNumberId,
      graph_api_url: graph.url,
    });
    if (config.type !== 'whatsapp') throw new Error('unreachable');
    const adapter = createWhatsAppAdapter(config, {
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
        const { body, headers } = graph.notification(senderId, text);
        await post(body, headers);
      },
      async malformed() {
        const forged = graph.notification('1', 'forged');
        await post(forged.body, graph.sign(forged.body, 'not-the-secret')).catch(() => undefined);
        await post('{"object":', graph.sign('{"object":')).catch(() => undefined);
        const other = graph.notification('1', 'for another number', '999');
        await post(other.body, other.headers);
      },
      sent: () => graph.sent.map((m) => ({ chatId: m.to, text: m.text })),
      close: () => graph.close(),
    };
  },
  {
    skip: [
      {
        check: 'typing',
        reason: 'the Cloud API shows typing only while marking a received message read',
      },
      {
        check: 'far end drops',
        reason: 'Cloud API notifications are webhooks: no connection to drop',
      },
    ],
  },
);

describe('a WhatsApp notification whose claim cannot be recorded (the database is down)', () => {
  it('is refused with 503 and nothing is handed over: Meta retries it', async () => {
    const graph = await startFakeGraph(credentials);
    try {
      const config = channelSchema.parse({
        type: 'whatsapp',
        access_token: credentials.token,
        app_secret: credentials.appSecret,
        verify_token: 'verify-me',
        phone_number_id: credentials.phoneNumberId,
        graph_api_url: graph.url,
      });
      if (config.type !== 'whatsapp') throw new Error('unreachable');
      const adapter = createWhatsAppAdapter(config, {
        fetch: globalThis.fetch,
        now: Date.now,
        logger: silentLogger(),
      });
      const recorder = recordingLink();
      await adapter.connect({
        ...recorder.link,
        claim: () => Promise.reject(new Error('the database is unreachable')),
      });
      const { body, headers } = graph.notification('15550001', 'keep me');
      await expect(
        adapter.webhook?.({ method: 'POST', headers, query: {}, rawBody: Buffer.from(body) }),
      ).rejects.toMatchObject({ code: 'unavailable' });
      expect(recorder.received).toEqual([]);
    } finally {
      await graph.close();
    }
  });
});
