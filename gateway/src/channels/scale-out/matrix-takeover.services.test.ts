/** Matrix's takeover among gateways sharing Redis and PostgreSQL (see the suite). */
import { startFakeMatrix } from '../testing/fake-matrix.ts';
import { runTakeoverSuite } from './testing/takeover-suite.ts';

const BOT = '@hearth:fake.test';
const TOKEN = 'syt_takeover_token';
const OWNER = '@owner:fake.test';
const ROOM = '!owner-dm:fake.test';

runTakeoverSuite('Matrix', process.env, async () => {
  const matrix = await startFakeMatrix({ userId: BOT, token: TOKEN });
  matrix.directRoom(ROOM, OWNER);
  return {
    channel: {
      type: 'matrix',
      homeserver_url: matrix.homeserverUrl,
      access_token: TOKEN,
      user_id: BOT,
      allow_from: [OWNER],
    },
    say: (text) => matrix.message(ROOM, OWNER, text),
    nextReply: async () => (await matrix.nextSent(1, 30_000))[0]?.body ?? '',
    drop: () => matrix.drop(),
    restore: () => matrix.restore(),
    close: () => matrix.close(),
  };
});
