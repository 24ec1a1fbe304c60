import { stat } from 'node:fs/promises';
import { Agent } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasOpenssl, selfSignedCertificate } from '../hub/testing/https-fixture.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { startFakePushService } from './testing/fake-push-service.ts';

type Json = Record<string, unknown>;

async function call(gw: TestGateway, method: string, path: string, body?: unknown, key?: string) {
  const response = await fetch(`${gw.url}/api/v1${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key ? { 'x-api-key': key } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

describe.runIf(hasOpenssl())(
  'web push against a fake push service on 127.0.0.1 (skipped without openssl, which makes its certificate)',
  () => {
    let certificate: { key: string; cert: string };
    let service: Awaited<ReturnType<typeof startFakePushService>>;
    let agent: Agent;
    let gw: TestGateway;
    beforeAll(async () => {
      certificate = selfSignedCertificate();
      service = await startFakePushService(certificate);
      agent = new Agent({ ca: certificate.cert });
      gw = await startTestGateway({ pushAgent: agent });
      await gw.gateway.whenReady();
    });
    afterAll(async () => {
      await gw?.close();
      await service?.close();
      agent?.destroy();
    });

    it('generates the VAPID keys once, 0600 in the state directory, and keeps them across restarts', async () => {
      const first = await call(gw, 'GET', '/push/vapid-public-key');
      expect(first.status).toBe(200);
      expect(Buffer.from(String(first.body.public_key), 'base64url')).toHaveLength(65);
      const file = await stat(join(gw.home, 'vapid-keys.json'));
      expect(file.mode & 0o777).toBe(0o600);
      await gw.gateway.close();
      const again = await startTestGateway({ home: gw.home, pushAgent: agent });
      await again.gateway.whenReady();
      expect((await call(again, 'GET', '/push/vapid-public-key')).body).toEqual(first.body);
      gw = again;
    });

    it('delivers an encrypted notification that the push service accepts, with VAPID, TTL and urgency', async () => {
      const browser = service.subscribe();
      const subscribed = await call(gw, 'POST', '/push/subscribe', browser);
      expect(subscribed).toEqual({
        status: 200,
        body: { subscribed: true, created: true, endpoint: browser.endpoint },
      });
      const listed = await call(gw, 'GET', '/push/subscriptions');
      expect(listed.body.count).toBe(1);
      const result = await call(gw, 'POST', '/push/notify', {
        title: 'Hello',
        body: 'From Hearth',
      });
      expect(result).toEqual({
        status: 200,
        body: { sent: 1, matched_subscribers: 1, failed: 0, removed: 0 },
      });
      const publicKey = (await call(gw, 'GET', '/push/vapid-public-key')).body.public_key;
      expect(service.received).toEqual([
        {
          subscription: browser.id,
          payload: { title: 'Hello', body: 'From Hearth' },
          ttl: '3600',
          urgency: 'normal',
          vapidKey: publicKey,
        },
      ]);
      expect(service.rejected).toEqual([]);
      await call(gw, 'DELETE', '/push/subscribe', { endpoint: browser.endpoint });
    });

    it('removes a subscription its push service answers 410 (or 404) for, counting it failed', async () => {
      const gone = service.subscribe(410);
      const missing = service.subscribe(404);
      const alive = service.subscribe();
      for (const s of [gone, missing, alive]) await call(gw, 'POST', '/push/subscribe', s);
      const result = await call(gw, 'POST', '/push/notify', { title: 't', body: '' });
      expect(result.body).toEqual({ sent: 1, matched_subscribers: 3, failed: 2, removed: 2 });
      const listed = await call(gw, 'GET', '/push/subscriptions');
      expect((listed.body.subscriptions as { endpoint: string }[]).map((s) => s.endpoint)).toEqual([
        alive.endpoint,
      ]);
      expect(await call(gw, 'DELETE', '/push/subscribe', { endpoint: alive.endpoint })).toEqual({
        status: 200,
        body: { unsubscribed: true, endpoint: alive.endpoint },
      });
      expect(
        (await call(gw, 'DELETE', '/push/subscribe', { endpoint: alive.endpoint })).body,
      ).toEqual({ unsubscribed: false, endpoint: alive.endpoint });
    });

    it('counts nothing sent with no subscribers', async () => {
      expect((await call(gw, 'POST', '/push/notify', { title: 'x', body: 'y' })).body).toEqual({
        sent: 0,
        matched_subscribers: 0,
        failed: 0,
        removed: 0,
      });
    });

    const good = () => service.subscribe();
    it.each([
      ['an http endpoint', () => ({ ...good(), endpoint: 'http://127.0.0.1/push/x' }), 'https'],
      ['a javascript: endpoint', () => ({ ...good(), endpoint: 'javascript:alert(1)' }), 'https'],
      ['a short p256dh', () => ({ ...good(), keys: { ...good().keys, p256dh: 'AAAA' } }), 'p256dh'],
      [
        'a compressed p256dh',
        () => ({
          ...good(),
          keys: { ...good().keys, p256dh: Buffer.alloc(65, 2).toString('base64url') },
        }),
        'p256dh',
      ],
      [
        'a 15-byte auth',
        () => ({
          ...good(),
          keys: { ...good().keys, auth: Buffer.alloc(15).toString('base64url') },
        }),
        'auth',
      ],
      ['no keys', () => ({ endpoint: good().endpoint }), 'keys'],
      [
        'a huge endpoint',
        () => ({ ...good(), endpoint: `https://a.example/${'x'.repeat(3000)}` }),
        'endpoint',
      ],
    ])(
      'refuses a subscription with %s (422 naming %s), storing nothing',
      async (_what, make, named) => {
        const response = await call(gw, 'POST', '/push/subscribe', make());
        expect(response.status).toBe(422);
        expect(String(response.body.detail)).toContain(named);
        expect((await call(gw, 'GET', '/push/subscriptions')).body.count).toBe(0);
      },
    );

    it.each([
      [{ body: 'no title' }, 'title'],
      [{ title: '  ', body: '' }, 'title'],
      [{ title: 'x'.repeat(201), body: '' }, 'title'],
      [{ title: 't', body: 'b', urgency: 'high' }, 'urgency'],
    ])('refuses notify %j with 422 naming %s', async (body, named) => {
      const response = await call(gw, 'POST', '/push/notify', body);
      expect(response.status).toBe(422);
      expect(String(response.body.detail)).toContain(named);
    });
  },
);

describe.runIf(hasOpenssl())('approval requests raise a push (skipped without openssl)', () => {
  let certificate: { key: string; cert: string };
  let service: Awaited<ReturnType<typeof startFakePushService>>;
  let agent: Agent;
  let bed: ChatTestBed;
  beforeAll(async () => {
    certificate = selfSignedCertificate();
    service = await startFakePushService(certificate);
    agent = new Agent({ ca: certificate.cert });
    bed = await startChatTestBed(undefined, { pushAgent: agent });
  });
  afterAll(async () => {
    await bed?.close();
    await service?.close();
    agent?.destroy();
  });

  it('pushes an approval no socket of its session saw, with its id for the Approve and Deny actions', async () => {
    const browser = service.subscribe();
    expect((await bed.post('/push/subscribe', browser)).status).toBe(200);
    bed.fake.reply(
      { toolCalls: [{ name: 'shell', arguments: { command: 'echo pushed' } }] },
      { text: 'Done.' },
    );
    const turn = bed.post('/chat', { message: 'run echo', session_id: 'push-session' });
    await expect.poll(() => service.received.length, { timeout: 15_000 }).toBe(1);
    const pending = (await bed.get('/approvals/pending')).body.pending as { id: string }[];
    expect(service.received[0]).toMatchObject({
      urgency: 'high',
      payload: {
        title: 'Approve shell?',
        body: expect.stringContaining('echo pushed'),
        approval_id: pending[0]!.id,
      },
    });
    // The service worker's Approve action calls this route.
    expect((await bed.post(`/approvals/${pending[0]!.id}/approve`, {})).status).toBe(200);
    expect((await turn).status).toBe(200);
  });
});
