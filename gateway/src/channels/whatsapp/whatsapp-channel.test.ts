import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../../config/schema.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { rawRequest } from '../../testing/fakes/raw-request.ts';
import { gatewayApi } from '../testing/channel-test-kit.ts';
import { startFakeGraph, type FakeGraph } from '../testing/fake-graph.ts';

const KEY = 'gateway-api-key';
const credentials = {
  token: 'EAAG-gw',
  phoneNumberId: '106540352242922',
  appSecret: 'meta-app-secret',
};
const OWNER = '15551230001';

describe('WhatsApp Cloud API, through a real gateway with an API key', () => {
  let bed: ChatTestBed;
  let graph: FakeGraph;

  const api = gatewayApi(() => bed.gw.url, { 'x-api-key': KEY });
  const hook = (body: string, headers: Record<string, string>) =>
    rawRequest(bed.gw.port, '/api/v1/channels/webhook/wa', { method: 'POST', headers, body });

  beforeAll(async () => {
    graph = await startFakeGraph(credentials);
    bed = await startChatTestBed(undefined, {
      config: {
        gateway: { api_key: KEY },
        channels: {
          wa: channelSchema.parse({
            type: 'whatsapp',
            access_token: credentials.token,
            app_secret: credentials.appSecret,
            verify_token: 'my-verify-token',
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

  it('answers the verify-token handshake with the challenge, and refuses a wrong token', async () => {
    await expect.poll(() => api.channelStatus('wa')).toBe('connected');
    const ok = await rawRequest(
      bed.gw.port,
      '/api/v1/channels/webhook/wa?hub.mode=subscribe&hub.verify_token=my-verify-token&hub.challenge=1158201444',
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('1158201444');
    const wrong = await rawRequest(
      bed.gw.port,
      '/api/v1/channels/webhook/wa?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1',
    );
    expect(wrong.status).toBe(403);
  });

  it('a signed notification runs a turn and the reply goes out through the Graph API', async () => {
    bed.fake.reply({ text: 'Hello on WhatsApp.' });
    const { body, headers } = graph.notification(OWNER, 'hi from my phone');
    const res = await hook(body, headers);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ received: 1 });
    await expect.poll(() => graph.sent.length, { timeout: 10_000 }).toBe(1);
    expect(graph.sent[0]).toEqual({ to: OWNER, text: 'Hello on WhatsApp.' });
    // No link preview: WhatsApp fetches no URL a reply names (Hearth issue #27).
    expect(graph.previewUrls).toEqual([false]);

    // Meta redelivers the same notification: the message id was seen, nothing runs twice.
    expect((await hook(body, headers)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bed.fake.requests).toHaveLength(1);
    expect(graph.sent).toHaveLength(1);
  });

  it('forged, unsigned and malformed notifications are 401/400/422, counted, and run nothing', async () => {
    const errors = () => api.errorsTotal('wa');
    const before = await errors();
    const { body } = graph.notification(OWNER, 'forged');
    expect((await hook(body, graph.sign(body, 'wrong-secret'))).status).toBe(401);
    expect((await hook(body, { 'content-type': 'application/json' })).status).toBe(401);
    expect((await hook('{"object":', graph.sign('{"object":'))).status).toBe(400);
    const odd = JSON.stringify({ object: 'page', entry: [] });
    expect((await hook(odd, graph.sign(odd))).status).toBe(422);
    expect(await errors()).toBe(before + 4);
    expect(bed.fake.requests).toHaveLength(1);
  });

  it('only the webhook skips the API key: every other channel route still needs it', async () => {
    const noKey = await rawRequest(bed.gw.port, '/api/v1/channels/wa/messages');
    expect(noKey.status).toBe(401);
    expect((await rawRequest(bed.gw.port, '/api/v1/channels')).status).toBe(401);
    expect((await api.call('GET', '/channels/wa/messages')).status).toBe(200);
    // The Host check still applies to the webhook (DNS rebinding).
    const { body, headers } = graph.notification(OWNER, 'via a rebinding name');
    const foreign = await rawRequest(bed.gw.port, '/api/v1/channels/webhook/wa', {
      method: 'POST',
      headers: { ...headers, host: 'evil.example' },
      body,
    });
    expect(foreign.status).toBe(403);
    // Path tricks do not reach another route without the key.
    for (const path of [
      '/api/v1/channels/webhook/wa/../wa/messages',
      '/api/v1/channels/webhook/%77a',
      '/api/v1/channels//webhook/wa',
    ]) {
      const res = await rawRequest(bed.gw.port, path);
      expect([401, 403, 404]).toContain(res.status);
      expect(res.body).not.toContain('"messages"');
    }
  });
});
