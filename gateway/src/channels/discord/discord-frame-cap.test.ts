/**
 * A Discord gateway frame over `max_frame_bytes` closes the connection before it is read whole
 * (ws's default would take 100 MiB): counted in `extension_input_refused_total{source="discord",
 * limit="frame_bytes"}` and the channel's errors, named in `last_error`, and discord.js
 * reconnects — messages flow again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { gatewayApi, startChannelTestBed } from '../testing/channel-test-kit.ts';
import { startFakeDiscord, type FakeDiscord } from '../testing/fake-discord.ts';

const TOKEN = 'gateway.discord.frame-cap';
const OWNER = '930000000000000777';
const CAP = 1_048_576;

describe('Discord gateway frames over max_frame_bytes', () => {
  let bed: ChatTestBed;
  let discord: FakeDiscord;
  const api = gatewayApi(() => bed.gw.url);
  const refusals = async () =>
    (await api.counter('extension_input_refused_total'))['source=discord,limit=frame_bytes'] ?? 0;

  beforeAll(async () => {
    discord = await startFakeDiscord(TOKEN);
    bed = await startChannelTestBed('dc', {
      type: 'discord',
      bot_token: TOKEN,
      rest_api_url: discord.apiUrl,
      allow_from: [OWNER],
      max_frame_bytes: CAP,
    });
  });
  afterAll(async () => {
    await bed.close();
    await discord.close();
  });

  it('a frame under the cap is read; one over it closes the connection, counted, and the channel comes back', async () => {
    await expect.poll(() => api.channelStatus('dc'), { timeout: 20_000 }).toBe('connected');
    const errors = await api.errorsTotal('dc');
    const refused = await refusals();

    // Just under the cap: an unknown dispatch, read and refused as such (no cap involved).
    discord.rawDispatch('HEARTH_FILLER', { pad: 'x'.repeat(CAP - 1_024) });
    await expect.poll(() => api.errorsTotal('dc'), { timeout: 10_000 }).toBe(errors + 1);
    expect(await refusals()).toBe(refused);
    expect(await api.channelStatus('dc')).toBe('connected');

    const resumes = discord.ops.filter((op) => op === 6).length;
    // Sent outside the session's dispatches (a RESUME would replay one, and be closed again).
    discord.rawFrame(JSON.stringify({ op: 0, s: null, t: 'HEARTH_FILLER', d: 'x'.repeat(CAP) }));
    await expect.poll(refusals, { timeout: 10_000 }).toBe(refused + 1);
    expect(await api.errorsTotal('dc')).toBe(errors + 2);
    // discord.js resumes the session on a new connection.
    await expect
      .poll(() => discord.ops.filter((op) => op === 6).length, { timeout: 20_000 })
      .toBeGreaterThan(resumes);
    await expect.poll(() => api.channelStatus('dc'), { timeout: 20_000 }).toBe('connected');
    expect((await api.call('GET', '/channels/dc')).body.last_error).toContain(
      `the Discord gateway sent a frame larger than ${CAP} bytes: the connection was closed`,
    );

    bed.fake.reply({ text: 'still here' });
    discord.message({ from: OWNER, text: 'after the big frame' });
    expect((await discord.nextSent(1, 20_000))[0]?.content).toBe('still here');
  }, 60_000);
});
