/**
 * A delivery captured before a restart is not taken again after it. The generic webhook's
 * signatures and WhatsApp's message ids (its signatures carry no time) are claimed in the
 * database, which a second gateway started on the same state directory — the same SQLite file —
 * reads; a WhatsApp message older than the replay window is refused outright.
 */
import { mkdtemp } from 'node:fs/promises';
import BetterSqlite3 from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../config/schema.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { startCallbackServer, type CallbackServer } from './testing/callback-server.ts';
import { gatewayApi, type Json } from './testing/channel-test-kit.ts';
import { startFakeGraph, type FakeGraph } from './testing/fake-graph.ts';
import { signedHeaders } from './webhook/signature.ts';

const SECRET = 'restart-webhook-secret';
const OWNER = '15551230042';
const WA = { token: 'EAAG-restart', phoneNumberId: '106540352242977', appSecret: 'wa-secret' };
const DAY_MS = 86_400_000;

interface Capture {
  body: string;
  headers: Record<string, string>;
}

describe('replayed deliveries across a gateway restart on the same state directory', () => {
  let home: string;
  let callback: CallbackServer;
  let graph: FakeGraph;
  let first: ChatTestBed | undefined;
  let second: ChatTestBed;
  let bed: ChatTestBed;
  const api = gatewayApi(() => bed.gw.url);

  const start = () =>
    startChatTestBed(undefined, {
      home,
      config: {
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
        },
      },
    });

  const post = async (channel: string, { body, headers }: Capture) => {
    const res = await fetch(`${bed.gw.url}/api/v1/channels/webhook/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const signed = (payload: Json, atMs = Date.now()): Capture => {
    const body = JSON.stringify(payload);
    return { body, headers: signedHeaders(SECRET, atMs, body) };
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  let capturedHook: Capture;
  let capturedWa: Capture;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hearth-replay-'));
    callback = await startCallbackServer(SECRET);
    graph = await startFakeGraph(WA);
    first = await start();
    bed = first;
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await callback.close();
    await graph.close();
  });

  it('before the restart: each delivery is answered once, a replay of it refused', async () => {
    bed.fake.reply({ text: 'Answered before the restart.' }, { text: 'On WhatsApp too.' });
    capturedHook = signed({ id: 'before-1', sender: OWNER, text: 'captured on the wire' });
    expect(await post('hooks', capturedHook)).toEqual({ status: 200, body: { received: true } });
    expect((await callback.next())[0]?.text).toBe('Answered before the restart.');
    expect(await post('hooks', capturedHook)).toEqual({
      status: 401,
      body: { detail: 'Webhook refused: replayed delivery' },
    });

    capturedWa = graph.notification(OWNER, 'captured on WhatsApp');
    expect(await post('wa', capturedWa)).toEqual({ status: 200, body: { received: 1 } });
    await expect.poll(() => graph.sent.length).toBe(1);
    expect(await post('wa', capturedWa)).toEqual({ status: 200, body: { received: 0 } });
    await settle();
    expect(bed.fake.requests).toHaveLength(2);
  });

  it('after the restart: the captured deliveries run nothing, are refused or taken as seen, and fresh ones are answered', async () => {
    // The first gateway stops (its state directory stays); a second starts on the same one.
    await first?.gw.gateway.close();
    await first?.fake.close();
    first = undefined;
    // A claim that expired while no gateway ran: the next one to start prunes it.
    const file = new BetterSqlite3(join(home, 'memory.db'));
    const expired = file.prepare("select count(*) from channel_seen where key = 'signature:old'");
    file
      .prepare(
        "insert into channel_seen (channel, key, expires_at) values ('hooks', 'signature:old', 1000)",
      )
      .run();
    expect(expired.pluck().get()).toBe(1);
    second = await start();
    bed = second;
    await expect.poll(() => expired.pluck().get()).toBe(0);
    file.close();
    const hookErrors = await api.errorsTotal('hooks');
    const waErrors = await api.errorsTotal('wa');

    expect(await post('hooks', capturedHook)).toEqual({
      status: 401,
      body: { detail: 'Webhook refused: replayed delivery' },
    });
    // The network's own retry, signed anew, is taken (200) but its message id was answered.
    // (A later second: signed in the capture's second, it would be the same delivery, a replay;
    // a restart can take less than a second.)
    const retried = signed(JSON.parse(capturedHook.body) as Json, Date.now() + 1_000);
    expect(await post('hooks', retried)).toEqual({ status: 200, body: { received: true } });
    // Meta's retry or a replay of the same notification: taken once, nothing runs.
    expect(await post('wa', capturedWa)).toEqual({ status: 200, body: { received: 0 } });
    await settle();
    expect(bed.fake.requests).toHaveLength(0);
    expect(callback.received).toHaveLength(1);
    expect(graph.sent).toHaveLength(1);
    expect(await api.errorsTotal('hooks')).toBe(hookErrors + 1);
    expect(await api.errorsTotal('wa')).toBe(waErrors);

    // Nothing else is lost: what came before is stored, new deliveries are answered.
    const before = (await api.call('GET', '/channels/hooks/messages?limit=10')).body
      .messages as Json[];
    expect(before.map((m) => m.text)).toEqual([
      'Answered before the restart.',
      'captured on the wire',
    ]);
    bed.fake.reply({ text: 'Fresh webhook answer.' }, { text: 'Fresh WhatsApp answer.' });
    expect(
      (await post('hooks', signed({ id: 'after-1', sender: OWNER, text: 'new one' }))).status,
    ).toBe(200);
    expect((await callback.next())[0]?.text).toBe('Fresh webhook answer.');
    expect(await post('wa', graph.notification(OWNER, 'new on WhatsApp'))).toEqual({
      status: 200,
      body: { received: 1 },
    });
    await expect.poll(() => graph.sent.at(-1)?.text).toBe('Fresh WhatsApp answer.');
  });

  it('a WhatsApp message older than the replay window is refused and counted; a late retry inside it is answered', async () => {
    bed.fake.reset();
    const errors = await api.errorsTotal('wa');
    const sentBefore = graph.sent.length;
    const stale = graph.notification(
      OWNER,
      'from nine days ago',
      WA.phoneNumberId,
      Date.now() - 9 * DAY_MS,
    );
    expect(await post('wa', stale)).toEqual({ status: 200, body: { received: 0 } });
    expect(await api.errorsTotal('wa')).toBe(errors + 1);
    bed.fake.reply({ text: 'Late but answered.' });
    const late = graph.notification(
      OWNER,
      'retried by Meta for six days',
      WA.phoneNumberId,
      Date.now() - 6 * DAY_MS,
    );
    expect(await post('wa', late)).toEqual({ status: 200, body: { received: 1 } });
    await expect.poll(() => graph.sent.length).toBe(sentBefore + 1);
    expect(graph.sent.at(-1)?.text).toBe('Late but answered.');
    expect(bed.fake.requests).toHaveLength(1);
  });
});
