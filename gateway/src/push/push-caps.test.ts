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
import { createPushService, MAX_PUSH_ANSWER_BYTES, type PushLimit } from './push-service.ts';
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
