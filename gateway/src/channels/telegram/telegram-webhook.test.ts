import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../../config/schema.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { gatewayApi } from '../testing/channel-test-kit.ts';
import { startFakeTelegram, type FakeTelegram } from '../testing/fake-telegram.ts';
import {
  IGNORED_UPDATES,
  MALFORMED_MESSAGES,
  MALFORMED_UPDATE_IDS,
} from '../testing/malformed-telegram.ts';
import { SECRET_TOKEN_HEADER } from './telegram-adapter.ts';

const TOKEN = '555111:webhook-test-token';
const SECRET = 'hook-secret_0123456789abcdef';
const PUBLIC_URL = 'https://hearth.example.test/api/v1/channels/webhook/tgw';
const OWNER = 3003;

type Json = Record<string, unknown>;

describe('Telegram webhook mode, through a real gateway, grammY and the fake Bot API', () => {
  let bed: ChatTestBed;
  let telegram: FakeTelegram;

  const call = async (method: string, path: string) => {
    const res = await fetch(`${bed.gw.url}/api/v1${path}`, { method });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const api = gatewayApi(() => bed.gw.url);
  const channel = async () => (await call('GET', '/channels/tgw')).body;
  const errors = async () => ((await channel()).stats as Json).errors_total as number;
  /** What the Bot API does: POST the update to the webhook, with the secret token header. */
  const deliver = async (body: string, secret: string | null = SECRET) => {
    const res = await fetch(`${bed.gw.url}/api/v1/channels/webhook/tgw`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(secret === null ? {} : { [SECRET_TOKEN_HEADER]: secret }),
      },
      body,
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  beforeAll(async () => {
    telegram = await startFakeTelegram(TOKEN);
    bed = await startChatTestBed(undefined, {
      config: {
        channels: {
          tgw: channelSchema.parse({
            type: 'telegram',
            bot_token: TOKEN,
            api_root: telegram.apiRoot,
            mode: 'webhook',
            webhook_url: PUBLIC_URL,
            secret_token: SECRET,
            allow_from: [String(OWNER)],
          }),
        },
      },
    });
  });
  afterAll(async () => {
    await bed.close();
    await telegram.close();
  });
  afterEach(() => {
    bed.fake.reset();
    telegram.skipSent();
  });

  it('registers the webhook with its secret token instead of polling', async () => {
    await expect.poll(async () => (await channel()).status, { timeout: 15_000 }).toBe('connected');
    expect(telegram.webhook()).toEqual({
      url: PUBLIC_URL,
      secret_token: SECRET,
      allowed_updates: ['message'],
    });
    expect(telegram.calls).not.toContain('getUpdates');
  });

  it('a delivery with the right secret token → model → reply', async () => {
    bed.fake.reply({ text: 'Hello over the webhook.' });
    const update = telegram.webhookUpdate({ from: OWNER, text: 'hi via webhook' });
    expect(await deliver(JSON.stringify(update))).toEqual({ status: 200, body: { ok: true } });
    expect(await telegram.nextSent()).toEqual([
      { chat_id: String(OWNER), text: 'Hello over the webhook.' },
    ]);
    expect(JSON.stringify(bed.fake.requests[0]?.body)).toContain('hi via webhook');
  });

  it('a forged or missing secret token is 401 and counted, before the body is even parsed', async () => {
    const before = await errors();
    const update = JSON.stringify(telegram.webhookUpdate({ from: OWNER, text: 'forged' }));
    for (const secret of [null, '', 'wrong-secret', `${SECRET}x`, SECRET.slice(0, -1)]) {
      const answer = await deliver(update, secret);
      expect(answer.status, String(secret)).toBe(401);
      expect(answer.body.detail).toContain(SECRET_TOKEN_HEADER);
    }
    // Not JSON at all, yet 401: the token is checked first.
    expect((await deliver('{not json', 'wrong')).status).toBe(401);
    expect(await errors()).toBe(before + 6);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(telegram.nextSent(1, 500)).rejects.toThrow(/expected/);
    expect(bed.fake.requests).toHaveLength(0);
  });

  it('a replayed update is answered once', async () => {
    bed.fake.reply({ text: 'only once' }, { text: 'twice?!' });
    const body = JSON.stringify(telegram.webhookUpdate({ from: OWNER, text: 'deliver me twice' }));
    expect((await deliver(body)).status).toBe(200);
    expect((await deliver(body)).body).toEqual({ ok: true, duplicate: true });
    expect((await telegram.nextSent())[0]?.text).toBe('only once');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(bed.fake.requests).toHaveLength(1);
  });

  it('a malformed body with the right token is 400 or 422 and counted; nothing reaches the model', async () => {
    const before = await errors();
    expect((await deliver('{not json')).status).toBe(400);
    for (const body of ['[]', '{}', '"text"', '{"update_id":"7"}', '{"update_id":1.5}', 'null'])
      expect((await deliver(body)).status, body).toBe(422);
    // An update whose message is malformed is refused and counted, yet answered 200: Telegram
    // would only deliver it again.
    const odd = { update_id: 9_000_001, message: { message_id: 1, text: { no: 'text' } } };
    expect(await deliver(JSON.stringify(odd))).toEqual({
      status: 200,
      body: { ok: true, refused: true },
    });
    expect(await errors()).toBe(before + 8);
    expect(bed.fake.requests).toHaveLength(0);
  });

  it('every malformed update of the table is refused and counted before anything is done with it; well-formed ones that are no text are not', async () => {
    const before = await errors();
    const metric = async () =>
      (await api.counter('messages_errors_total'))['channel=telegram'] ?? 0;
    const metricBefore = await metric();
    const actions = telegram.actions.length;
    let id = 9_100_000;
    for (const row of MALFORMED_MESSAGES) {
      const answer = await deliver(JSON.stringify({ update_id: (id += 1), ...row.update }));
      expect(answer, row.name).toEqual({ status: 200, body: { ok: true, refused: true } });
    }
    for (const row of MALFORMED_UPDATE_IDS) {
      const answer = await deliver(JSON.stringify(row.update));
      expect(answer.status, row.name).toBe(422);
      expect(answer.body.detail, row.name).toMatch(/^Webhook body is not an update: update_id: /);
    }
    for (const row of IGNORED_UPDATES) {
      const answer = await deliver(JSON.stringify({ update_id: (id += 1), ...row.update }));
      expect(answer, row.name).toEqual({ status: 200, body: { ok: true } });
    }
    const refused = MALFORMED_MESSAGES.length + MALFORMED_UPDATE_IDS.length;
    expect(await errors()).toBe(before + refused);
    expect(await metric()).toBe(metricBefore + refused);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bed.fake.requests).toHaveLength(0);
    expect(telegram.actions).toHaveLength(actions);
    await expect(telegram.nextSent(1, 300)).rejects.toThrow(/expected/);
  });
});
