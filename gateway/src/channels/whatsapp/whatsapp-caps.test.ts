/**
 * WhatsApp's far ends within caps: a notification's text over WhatsApp's own limit is refused
 * (the rest of the notification still goes), a Graph API answer without end is cut at its cap,
 * and a body over the webhook limit is 413 — each counted in the channel's errors.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../../config/schema.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { rawRequest } from '../../testing/fakes/raw-request.ts';
import { WEBHOOK_BODY_LIMIT_BYTES } from '../routes.ts';
import { gatewayApi } from '../testing/channel-test-kit.ts';
import { startFakeGraph, type FakeGraph } from '../testing/fake-graph.ts';
import { MAX_GRAPH_ANSWER_BYTES, WHATSAPP_INBOUND_LIMIT } from './whatsapp-adapter.ts';

const credentials = { token: 'EAAG-caps', phoneNumberId: '106540352242923', appSecret: 's3' };
const OWNER = '15551230002';

describe('WhatsApp: what Meta’s side sends is capped', () => {
  let bed: ChatTestBed;
  let graph: FakeGraph;
  const api = gatewayApi(() => bed.gw.url);
  const errors = () => api.errorsTotal('wa');
  const hook = (body: string, headers: Record<string, string>) =>
    rawRequest(bed.gw.port, '/api/v1/channels/webhook/wa', { method: 'POST', headers, body });

  beforeAll(async () => {
    graph = await startFakeGraph(credentials);
    bed = await startChatTestBed(undefined, {
      config: {
        channels: {
          wa: channelSchema.parse({
            type: 'whatsapp',
            access_token: credentials.token,
            app_secret: credentials.appSecret,
            verify_token: 'v',
            phone_number_id: credentials.phoneNumberId,
            graph_api_url: graph.url,
            allow_from: [OWNER],
          }),
        },
      },
    });
  });
  afterAll(async () => {
    await bed.close();
    await graph.close();
  });
  afterEach(() => bed.fake.reset());

  it('a text over WhatsApp’s limit is refused and counted; nothing runs', async () => {
    await expect.poll(() => api.channelStatus('wa')).toBe('connected');
    const before = await errors();
    const { body, headers } = graph.notification(OWNER, 'x'.repeat(WHATSAPP_INBOUND_LIMIT + 1));
    const res = await hook(body, headers);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ received: 0 });
    expect(await errors()).toBe(before + 1);
    expect(bed.fake.requests).toHaveLength(0);
  });

  it('a Graph API answer without end is cut at its cap: the reply fails, counted', async () => {
    const before = await errors();
    graph.endlessNextSend();
    bed.fake.reply({ text: 'This reply meets an endless answer.' });
    const { body, headers } = graph.notification(OWNER, 'answer me');
    expect((await hook(body, headers)).status).toBe(200);
    await expect.poll(errors, { timeout: 5_000 }).toBe(before + 1);
    await expect.poll(() => graph.cuts.length).toBe(1);
    expect(graph.cuts[0]).toBeLessThan(16 * MAX_GRAPH_ANSWER_BYTES);
  });

  it('a notification over the webhook body limit is 413, before anything reads it', async () => {
    const { body, headers } = graph.notification(OWNER, 'y'.repeat(WEBHOOK_BODY_LIMIT_BYTES + 1));
    expect((await hook(body, headers)).status).toBe(413);
    expect(bed.fake.requests).toHaveLength(0);
  });
});
