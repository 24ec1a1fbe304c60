/**
 * Gateways on one PostgreSQL database and nothing else shared (no Redis): a push delivery — a
 * signed webhook, a WhatsApp notification, a Telegram update in webhook mode — that reached one
 * of them is not taken again by another, whether replayed later or raced at once. The claim is
 * the insert of its key into the shared `channel_seen` table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../../config/schema.ts';
import {
  createScratchDatabase,
  postgresUnavailable,
  type ScratchDatabase,
} from '../../db/postgres/testing/scratch-database.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { startCallbackServer, type CallbackServer } from '../testing/callback-server.ts';
import type { Json } from '../testing/channel-test-kit.ts';
import { startFakeGraph, type FakeGraph } from '../testing/fake-graph.ts';
import { startFakeTelegram, type FakeTelegram } from '../testing/fake-telegram.ts';
import { SECRET_TOKEN_HEADER } from '../telegram/telegram-adapter.ts';
import { signedHeaders } from '../webhook/signature.ts';

const SECRET = 'shared-db-webhook-secret';
const OWNER = '15551239999';
const TG_OWNER = 8008;
const TG_TOKEN = '515151:shared-db';
const TG_SECRET = 'shared-db-secret_0123456789';
const WA = { token: 'EAAG-shared', phoneNumberId: '106540352242988', appSecret: 'wa-shared' };

const missing = await postgresUnavailable(process.env);
const title = 'push deliveries on two gateways sharing one PostgreSQL database (no Redis)';

describe.skipIf(missing !== undefined)(missing ? `${title} (skipped: ${missing})` : title, () => {
  let database: ScratchDatabase;
  let callback: CallbackServer;
  let graph: FakeGraph;
  let telegram: FakeTelegram;
  let a: ChatTestBed;
  let b: ChatTestBed;

  const start = () =>
    startChatTestBed(undefined, {
      config: {
        memory: { db_path: database.url },
        channels: {
          hooks: channelSchema.parse({
            type: 'webhook',
            signing_secret: SECRET,
            callback_url: callback.url,
            allow_from: [OWNER],
          }),
          wa: channelSchema.parse({
            type: 'whatsapp',
            access_token: WA.token,
            app_secret: WA.appSecret,
            verify_token: 'verify',
            phone_number_id: WA.phoneNumberId,
            graph_api_url: graph.url,
            allow_from: [OWNER],
          }),
          tg: channelSchema.parse({
            type: 'telegram',
            bot_token: TG_TOKEN,
            api_root: telegram.apiRoot,
            mode: 'webhook',
            webhook_url: 'https://hearth.example.test/api/v1/channels/webhook/tg',
            secret_token: TG_SECRET,
            allow_from: [String(TG_OWNER)],
          }),
        },
      },
    });

  const post = async (
    bed: ChatTestBed,
    channel: string,
    body: string,
    headers: Record<string, string>,
  ) => {
    const res = await fetch(`${bed.gw.url}/api/v1/channels/webhook/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const signed = (payload: Json, at = Date.now()) => {
    const body = JSON.stringify(payload);
    return { body, headers: signedHeaders(SECRET, at, body) };
  };
  const modelCalls = () => a.fake.requests.length + b.fake.requests.length;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1_000));
  const resetModels = () => {
    a.fake.reset();
    b.fake.reset();
  };

  beforeAll(async () => {
    database = await createScratchDatabase('hearth_replay', process.env);
    callback = await startCallbackServer(SECRET);
    graph = await startFakeGraph(WA);
    telegram = await startFakeTelegram(TG_TOKEN);
    // One after the other: the first migrates the database.
    a = await start();
    b = await start();
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await callback?.close();
    await graph?.close();
    await telegram?.close();
    await database?.drop();
  });

  it('a webhook delivery taken by one gateway is a replay to the other; raced, one takes it', async () => {
    resetModels();
    const first = signed({ id: 'w-1', sender: OWNER, text: 'to A, replayed to B' });
    expect((await post(a, 'hooks', first.body, first.headers)).status).toBe(200);
    expect(await post(b, 'hooks', first.body, first.headers)).toEqual({
      status: 401,
      body: { detail: 'Webhook refused: replayed delivery' },
    });

    const raced = signed({ id: 'w-2', sender: OWNER, text: 'to both at once' });
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(i % 2 ? a : b, 'hooks', raced.body, raced.headers)),
    );
    expect(statuses.map((s) => s.status).sort()).toEqual([200, ...Array(9).fill(401)]);

    // The network's own retry of w-1, signed anew, reaches B: taken, but its id was answered.
    // (a later second: signed in the same second, it would be the same delivery, a replay)
    const retry = signed(
      { id: 'w-1', sender: OWNER, text: 'to A, replayed to B' },
      Date.now() + 2_000,
    );
    expect((await post(b, 'hooks', retry.body, retry.headers)).status).toBe(200);
    await callback.waitFor(2);
    await settle();
    expect(callback.received).toHaveLength(2);
    expect(modelCalls()).toBe(2);
  });

  it('a WhatsApp notification delivered to both gateways, at once and again, is answered once', async () => {
    resetModels();
    const notification = graph.notification(OWNER, 'to every gateway');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post(i % 2 ? a : b, 'wa', notification.body, notification.headers),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(answers.map((answer) => answer.body.received).sort()).toEqual([0, 0, 0, 0, 0, 1]);
    await expect.poll(() => graph.sent.length).toBe(1);
    await settle();
    expect(graph.sent).toHaveLength(1);
    expect(modelCalls()).toBe(1);
  });

  it('a Telegram update delivered to both gateways (webhook mode), at once and again, is answered once', async () => {
    resetModels();
    const update = JSON.stringify(telegram.webhookUpdate({ from: TG_OWNER, text: 'to all' }));
    const headers = { [SECRET_TOKEN_HEADER]: TG_SECRET };
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => post(i % 2 ? a : b, 'tg', update, headers)),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(6);
    expect(answers.filter((answer) => answer.body.duplicate === true)).toHaveLength(5);
    await telegram.nextSent();
    await settle();
    expect(telegram.sent).toHaveLength(1);
    expect(modelCalls()).toBe(1);
  });
});
