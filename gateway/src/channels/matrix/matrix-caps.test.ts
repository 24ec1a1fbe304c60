/**
 * What a hostile homeserver can make the gateway hold is capped (matrix-caps.ts): a `/sync`
 * answer without end is cut as it streams, more rooms than the cap refuse the connection, and a
 * room's live timeline keeps its latest events only. Through a real gateway, matrix-js-sdk and
 * the fake homeserver (and, for the timeline, a real client synced against it).
 */
import { ClientEvent, createClient, SyncState } from 'matrix-js-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { gatewayApi, startChannelTestBed } from '../testing/channel-test-kit.ts';
import { startFakeMatrix, type FakeMatrix } from '../testing/fake-matrix.ts';
import { MATRIX_CAPS, trimTimelines } from './matrix-caps.ts';
import { quietSdkGlobalLogger } from './sdk-logger.ts';

const BOT = '@hearth:fake.test';
const TOKEN = 'syt_caps_test_token';
const OWNER = '@owner:fake.test';
const OWNER_DM = '!owner-dm:fake.test';

const channel = (matrix: FakeMatrix) => ({
  type: 'matrix',
  homeserver_url: matrix.homeserverUrl,
  access_token: TOKEN,
  user_id: BOT,
  allow_from: [OWNER],
});

describe('Matrix: a /sync answer without end', () => {
  let bed: ChatTestBed;
  let matrix: FakeMatrix;
  const api = gatewayApi(() => bed.gw.url);
  beforeAll(async () => {
    matrix = await startFakeMatrix({ userId: BOT, token: TOKEN });
    matrix.directRoom(OWNER_DM, OWNER);
    bed = await startChannelTestBed('mx', channel(matrix));
  });
  afterAll(async () => {
    await bed.close();
    await matrix.close();
  });
  afterEach(() => bed.fake.reset());

  it('is cut at the cap and counted; the next sync goes on and messages are answered', async () => {
    await expect.poll(() => api.channelStatus('mx'), { timeout: 20_000 }).toBe('connected');
    const before = await api.errorsTotal('mx');
    matrix.endlessSync();
    await expect.poll(() => api.errorsTotal('mx'), { timeout: 10_000 }).toBe(before + 1);
    await expect.poll(() => matrix.cuts.length).toBe(1); // the far end sees the cut after it
    expect(matrix.cuts[0]).toBeLessThan(4 * MATRIX_CAPS.answerBytes);
    bed.fake.reply({ text: 'Still syncing.' });
    matrix.message(OWNER_DM, OWNER, 'are you there?');
    expect((await matrix.nextSent(1, 30_000)).map((m) => m.body)).toEqual(['Still syncing.']);
  }, 45_000);
});

describe('Matrix: more rooms than the cap', () => {
  let bed: ChatTestBed;
  let matrix: FakeMatrix;
  const api = gatewayApi(() => bed.gw.url);
  beforeAll(async () => {
    matrix = await startFakeMatrix({ userId: BOT, token: TOKEN });
    for (let i = 0; i <= MATRIX_CAPS.rooms; i += 1)
      matrix.groupRoom(`!room-${i}:fake.test`, [`@user-${i}:fake.test`]);
    bed = await startChannelTestBed('mx', channel(matrix));
  });
  afterAll(async () => {
    await bed.close();
    await matrix.close();
  });

  it('refuse the connection, named in last_error, and counted', async () => {
    await expect
      .poll(async () => (await api.call('GET', '/channels/mx')).body.last_error, {
        timeout: 20_000,
      })
      .toBe('the homeserver syncs 1001 rooms for this account: at most 1000 are taken');
    expect(await api.channelStatus('mx')).not.toBe('connected');
    expect(await api.errorsTotal('mx')).toBeGreaterThanOrEqual(1);
  }, 30_000);
});

describe('trimTimelines, on a real client synced against the fake homeserver', () => {
  it('keeps the latest half of a timeline over the cap, and leaves short ones alone', async () => {
    quietSdkGlobalLogger();
    const matrix = await startFakeMatrix({ userId: BOT, token: TOKEN });
    matrix.directRoom(OWNER_DM, OWNER);
    matrix.directRoom('!quiet:fake.test', '@quiet:fake.test');
    const client = createClient({
      baseUrl: matrix.homeserverUrl,
      accessToken: TOKEN,
      userId: BOT,
      fetchFn: globalThis.fetch,
    });
    try {
      const prepared = new Promise<void>((resolve) =>
        client.on(ClientEvent.Sync, (state) => state === SyncState.Prepared && resolve()),
      );
      await client.startClient({ initialSyncLimit: 10, pollTimeout: 1_000 });
      await prepared;
      for (let i = 0; i < 60; i += 1) matrix.message(OWNER_DM, OWNER, `message ${i}`);
      await matrix.caughtUp();
      const room = client.getRoom(OWNER_DM)!;
      const quiet = client.getRoom('!quiet:fake.test')!;
      const quietBefore = quiet.getLiveTimeline().getEvents().length;
      const length = room.getLiveTimeline().getEvents().length;
      expect(length).toBeGreaterThan(60);

      expect(trimTimelines(client.getRooms(), 40)).toBe(length - 20);
      const kept = room.getLiveTimeline().getEvents();
      expect(kept).toHaveLength(20);
      expect(kept.at(-1)?.getContent().body).toBe('message 59');
      expect(kept[0]?.getContent().body).toBe('message 40');
      expect(quiet.getLiveTimeline().getEvents()).toHaveLength(quietBefore);
    } finally {
      client.stopClient();
      await matrix.close();
    }
  });
});
