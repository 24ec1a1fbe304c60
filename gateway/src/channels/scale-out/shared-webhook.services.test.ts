/**
 * Several gateways sharing Redis behind one reverse proxy: a push network (the signed webhook
 * channel) may deliver a message to any of them, and retries a delivery it thinks failed —
 * possibly to another gateway. The message id is claimed in Redis, so each message is answered
 * once, whichever gateways it reached.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../../config/schema.ts';
import { requireRedis, testRedisUrl } from '../../memory/short-term/testing/redis-server.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { startCallbackServer, type CallbackServer } from '../testing/callback-server.ts';
import { signedHeaders } from '../webhook/signature.ts';
import { TEST_CLUSTER_SECRET } from '../../scale-out/testing/test-seal.ts';

const REDIS = testRedisUrl(process.env);
const SECRET = 'shared-webhook-secret';
const OWNER = 'owner-7';
const CHANNEL = `hooks-${randomBytes(4).toString('hex')}`;

describe('a webhook channel on two gateways sharing Redis', () => {
  let callback: CallbackServer;
  let a: ChatTestBed;
  let b: ChatTestBed;

  const start = () =>
    startChatTestBed(undefined, {
      config: {
        gateway: { cluster_secret: TEST_CLUSTER_SECRET },
        memory: { cache_url: REDIS },
        channels: {
          [CHANNEL]: channelSchema.parse({
            type: 'webhook',
            signing_secret: SECRET,
            callback_url: callback.url,
            allow_from: [OWNER],
          }),
        },
      },
    });

  /** A delivery, signed anew as a network's retry is (`ageSeconds` back: a fresh signature). */
  async function deliver(bed: ChatTestBed, id: string, text: string, ageSeconds = 0) {
    const body = JSON.stringify({ id, sender: OWNER, text });
    const signed = signedHeaders(SECRET, Date.now() - ageSeconds * 1000, body);
    const res = await fetch(`${bed.gw.url}/api/v1/channels/webhook/${CHANNEL}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signed },
      body,
    });
    return res.status;
  }

  beforeAll(async () => {
    await requireRedis(REDIS);
    callback = await startCallbackServer(SECRET);
    [a, b] = await Promise.all([start(), start()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await callback?.close();
  });

  it('the same delivery to both gateways (and again to each) is answered once', async () => {
    a.fake.reply({ text: 'answered by A' });
    b.fake.reply({ text: 'answered by B' });
    const id = `m-${randomBytes(6).toString('hex')}`;
    const statuses = await Promise.all([
      deliver(a, id, 'hello both'),
      deliver(b, id, 'hello both', 1),
    ]);
    // Both acknowledge (a network must not keep retrying), one of them answers.
    expect(statuses).toEqual([200, 200]);
    const [reply] = await callback.next();
    expect(reply).toMatchObject({ chat: OWNER, signed: true });
    // The network's retries, each signed anew.
    expect(await deliver(a, id, 'hello both', 2)).toBe(200);
    expect(await deliver(b, id, 'hello both', 3)).toBe(200);
    await a.gw.gateway.whenReady();
    // Give a wrongly duplicated turn time to show up before counting model calls.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(a.fake.requests.length + b.fake.requests.length).toBe(1);
  });

  it('different messages are each answered, on whichever gateway they arrive', async () => {
    a.fake.reset();
    b.fake.reset();
    callback.skip();
    a.fake.reply({ text: 'one' });
    b.fake.reply({ text: 'two' });
    expect(await deliver(a, `m-${randomBytes(6).toString('hex')}`, 'first')).toBe(200);
    expect(await deliver(b, `m-${randomBytes(6).toString('hex')}`, 'second')).toBe(200);
    const texts: string[] = [];
    for (let i = 0; i < 2; i += 1) texts.push(...(await callback.next()).map((r) => r.text));
    expect(texts.sort()).toEqual(['one', 'two']);
  });
});
