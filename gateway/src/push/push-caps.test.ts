/**
 * A push service's answer is capped: one without end is cut at MAX_PUSH_ANSWER_BYTES, one that
 * trickles a byte at a time (which an idle timeout never notices) at the delivery deadline. The
 * delivery counts as failed, the refusal in `extension_input_refused_total{source="push"}`, and
 * the other subscribers get theirs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasOpenssl, selfSignedCertificate } from '../hub/testing/https-fixture.ts';
import { silentLogger } from '../observability/logger.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import {
  createPushService,
  MAX_PUSH_ANSWER_BYTES,
  MAX_PUSH_SUBSCRIPTIONS,
  type PushLimit,
} from './push-service.ts';
import { openSubscriptionFile } from './subscriptions.ts';
import { startFakePushService } from './testing/fake-push-service.ts';
import { loadOrCreateVapidKeys } from './vapid-keys.ts';

describe.runIf(hasOpenssl())(
  'push services that answer without end (skipped without openssl, which makes the certificate)',
  () => {
    let service: Awaited<ReturnType<typeof startFakePushService>>;
    let agent: Agent;
    beforeAll(async () => {
      const certificate = selfSignedCertificate();
      service = await startFakePushService(certificate);
      agent = new Agent({ ca: certificate.cert });
    });
    afterAll(async () => {
      await service?.close();
      agent?.destroy();
    });

    describe('through the gateway', () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({ pushAgent: agent });
        await gw.gateway.whenReady();
      });
      afterAll(() => gw?.close());
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${gw.url}/api/v1${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return (await response.json()) as Record<string, unknown>;
      };

      it('an endless answer is cut at the cap, counted; the other subscriber gets its push', async () => {
        const flooding = service.subscribe(201, 'endless');
        const fine = service.subscribe();
        for (const browser of [flooding, fine]) await call('POST', '/push/subscribe', browser);
        const result = await call('POST', '/push/notify', { title: 'Hi', body: 'there' });
        expect(result).toEqual({ sent: 1, matched_subscribers: 2, failed: 1, removed: 0 });
        expect(service.received.map((push) => push.subscription)).toContain(fine.id);
        await expect.poll(() => service.cuts.length).toBe(1);
        expect(service.cuts[0]).toBeLessThan(64 * MAX_PUSH_ANSWER_BYTES);
        const snapshot = (await call('GET', '/metrics/snapshot')) as Record<
          string,
          { values: Record<string, number> }
        >;
        expect(snapshot.extension_input_refused_total?.values).toEqual({
          'source=push,limit=answer_bytes': 1,
        });
      });
    });

    it('an answer trickling a byte a second is cut at the delivery deadline, counted', async () => {
      const home = await mkdtemp(join(tmpdir(), 'hearth-push-caps-'));
      try {
        const subscriptions = await openSubscriptionFile(join(home, 'subscriptions.json'));
        const refused: PushLimit[] = [];
        const push = createPushService({
          keys: await loadOrCreateVapidKeys(join(home, 'vapid-keys.json')),
          subscriptions,
          logger: silentLogger(),
          now: Date.now,
          agent,
          deliveryTimeoutMs: 1_500,
          onRefused: (limit) => refused.push(limit),
        });
        await push.subscribe(service.subscribe(201, 'trickle'));
        const started = Date.now();
        const result = await push.notify({ title: 'Slow', body: 'service' });
        expect(result).toEqual({ sent: 0, matched_subscribers: 1, failed: 1, removed: 0 });
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(refused).toEqual(['answer_time']);
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    });
  },
);

describe('push subscriptions are capped', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.gateway.whenReady();
  });
  afterAll(() => gw?.close());

  const browser = (n: number) => ({
    endpoint: `https://push.example/send/${n}`,
    keys: {
      p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, n % 256)]).toString('base64url'),
      auth: Buffer.alloc(16, 7).toString('base64url'),
    },
  });
  const post = (path: string, body: unknown, method = 'POST') =>
    fetch(`${gw.url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it(`keeps at most ${MAX_PUSH_SUBSCRIPTIONS}: one more is refused (409, counted) until one is removed`, async () => {
    for (let n = 0; n < MAX_PUSH_SUBSCRIPTIONS; n += 1) {
      expect((await post('/push/subscribe', browser(n))).status).toBe(200);
    }
    const refused = await post('/push/subscribe', browser(MAX_PUSH_SUBSCRIPTIONS));
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /At most 100 push subscriptions/,
    );
    // Renewing a known endpoint is not a new subscription.
    expect((await post('/push/subscribe', browser(3))).status).toBe(200);
    const listed = (await (await fetch(`${gw.url}/api/v1/push/subscriptions`)).json()) as {
      count: number;
    };
    expect(listed.count).toBe(MAX_PUSH_SUBSCRIPTIONS);
    const metrics = await (await fetch(`${gw.url}/api/v1/metrics`)).text();
    expect(metrics).toContain(
      'extension_input_refused_total{source="push",limit="subscriptions"} 1',
    );
    expect(
      (await post('/push/subscribe', { endpoint: browser(0).endpoint }, 'DELETE')).status,
    ).toBe(200);
    expect((await post('/push/subscribe', browser(MAX_PUSH_SUBSCRIPTIONS))).status).toBe(200);
  });
});
