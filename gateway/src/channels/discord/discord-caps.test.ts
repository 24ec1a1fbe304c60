/**
 * What a hostile Discord far end can make the gateway hold is capped (discord-caps.ts): more
 * guilds than one connection may have refuse the connection, a GUILD_CREATE's over-long lists are
 * cut before discord.js caches them, and a REST answer without end is cut as it streams — each
 * counted in the channel's errors. Through a real gateway, discord.js and the fake Discord.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { gatewayApi, startChannelTestBed } from '../testing/channel-test-kit.ts';
import { startFakeDiscord, type FakeDiscord } from '../testing/fake-discord.ts';
import { MAX_REST_ANSWER_BYTES } from './discord-adapter.ts';
import { capDispatch, DISCORD_CAPS } from './discord-caps.ts';

const TOKEN = 'gateway.discord.caps-token';
const OWNER = '930000000000000111';

describe('capDispatch cuts a dispatch in place, before discord.js reads it', () => {
  const none = { size: 0, has: () => false };
  it('a GUILD_CREATE list over the cap is cut to it, and named', () => {
    const channels = Array.from({ length: 1_500 }, (_, i) => ({ id: String(i), type: 0 }));
    const packet = { t: 'GUILD_CREATE', d: { id: '1', channels, roles: [{ id: '1' }] } };
    expect(capDispatch(packet, none)).toEqual({ trimmed: ['channels: 1500'] });
    expect(packet.d.channels).toHaveLength(DISCORD_CAPS.listEntries);
    expect(packet.d.roles).toHaveLength(1);
  });
  it('a READY listing more guilds than a connection may have is refused, and lists none', () => {
    const guilds = Array.from({ length: DISCORD_CAPS.guilds + 1 }, (_, i) => ({ id: String(i) }));
    const packet = { t: 'READY', d: { guilds } };
    expect(capDispatch(packet, none).fatal).toBe(
      'the Discord gateway sent 2501 guilds: one connection serves at most 2500 (Discord requires sharding past that)',
    );
    expect(packet.d.guilds).toHaveLength(0);
  });
  it('one guild past the cap refuses the connection; a guild it has is an update', () => {
    const full = { size: DISCORD_CAPS.guilds, has: (id: string) => id === 'known' };
    expect(capDispatch({ t: 'GUILD_CREATE', d: { id: 'new' } }, full).fatal).toMatch(
      /more than 2500 guilds/,
    );
    expect(capDispatch({ t: 'GUILD_CREATE', d: { id: 'known' } }, full).fatal).toBeUndefined();
  });
});

describe('Discord: what a hostile far end sends is capped', () => {
  let bed: ChatTestBed;
  let discord: FakeDiscord;
  const api = gatewayApi(() => bed.gw.url);
  const errorsTotal = () => api.errorsTotal('dc');

  beforeAll(async () => {
    discord = await startFakeDiscord(TOKEN);
    bed = await startChannelTestBed('dc', {
      type: 'discord',
      bot_token: TOKEN,
      rest_api_url: discord.apiUrl,
      allow_from: [OWNER],
    });
  });
  afterAll(async () => {
    await bed.close();
    await discord.close();
  });
  afterEach(() => {
    bed.fake.reset();
    discord.skipSent();
  });

  it('a GUILD_CREATE with 1,500 channels is cut and counted; the channel goes on', async () => {
    await expect.poll(() => api.channelStatus('dc'), { timeout: 20_000 }).toBe('connected');
    const before = await errorsTotal();
    discord.rawDispatch('GUILD_CREATE', {
      id: '950000000000000001',
      name: 'a guild with too many channels',
      owner_id: '930000000000000001',
      unavailable: false,
      member_count: 1,
      features: [],
      roles: [],
      emojis: [],
      stickers: [],
      members: [],
      presences: [],
      voice_states: [],
      threads: [],
      stage_instances: [],
      guild_scheduled_events: [],
      channels: Array.from({ length: 1_500 }, (_, i) => ({
        id: String(950_000_000_000_100_000n + BigInt(i)),
        type: 0,
        name: `c${i}`,
        position: i,
        permission_overwrites: [],
      })),
    });
    await expect.poll(errorsTotal).toBe(before + 1);
    bed.fake.reply({ text: 'Still answering.' });
    discord.message({ from: OWNER, text: 'still there?' });
    expect((await discord.nextSent()).map((m) => m.content)).toEqual(['Still answering.']);
  });

  it('a REST answer without end is cut at its cap: the reply fails, counted', async () => {
    const before = await errorsTotal();
    discord.endlessNext(/^POST \/channels\/\d+\/messages$/);
    bed.fake.reply({ text: 'This reply meets an endless answer.' });
    discord.message({ from: OWNER, text: 'answer me' });
    await expect.poll(errorsTotal, { timeout: 10_000 }).toBe(before + 1);
    await expect.poll(() => discord.cuts.length).toBeGreaterThanOrEqual(1);
    for (const cut of discord.cuts) expect(cut).toBeLessThan(4 * MAX_REST_ANSWER_BYTES);
  });
});

describe('Discord: a READY with more guilds than one connection may have', () => {
  let bed: ChatTestBed;
  let discord: FakeDiscord;
  const api = gatewayApi(() => bed.gw.url);
  beforeAll(async () => {
    discord = await startFakeDiscord(TOKEN, { readyGuilds: DISCORD_CAPS.guilds + 1 });
    bed = await startChannelTestBed('dc', {
      type: 'discord',
      bot_token: TOKEN,
      rest_api_url: discord.apiUrl,
      allow_from: [OWNER],
    });
  });
  afterAll(async () => {
    await bed.close();
    await discord.close();
  });

  it('refuses the connection, says why in last_error and /status, and counts it', async () => {
    await expect
      .poll(async () => (await api.call('GET', '/channels/dc')).body.last_error, {
        timeout: 20_000,
      })
      .toBe(
        'the Discord gateway sent 2501 guilds: one connection serves at most 2500 (Discord requires sharding past that)',
      );
    expect(await api.channelStatus('dc')).not.toBe('connected');
    expect(await api.errorsTotal('dc')).toBeGreaterThanOrEqual(1);
    const status = (await api.call('GET', '/status')).body as { backends: Record<string, string> };
    expect(status.backends['channel.dc']).toContain('one connection serves at most 2500');
  });
});
