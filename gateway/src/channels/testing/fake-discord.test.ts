/**
 * The fake Discord's message history, on the wire as Discord documents it: `GET
 * /channels/{id}/messages` with `after`, `before` and `limit` (1–100, 50 by default), messages
 * newest first, `Invalid Form Body` (50035) for bad parameters, `Unknown Channel` (10003) and
 * `Missing Access` (50001); `GET /channels/{id}`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from './fake-discord.ts';

const TOKEN = 'fake.discord.history-token';
const ANN = '930000000000000501';

describe('the fake Discord’s GET /channels/{id}/messages', () => {
  let discord: FakeDiscord;
  let dm: string;
  /** Ids of ANN's 60 messages in her DM, oldest first. */
  let ids: string[];

  const get = async (path: string, token = TOKEN) => {
    const res = await fetch(`${discord.apiUrl}/v10${path}`, {
      headers: { authorization: `Bot ${token}` },
    });
    return { status: res.status, body: await res.json() };
  };
  const messages = async (query: string, channel = dm) => {
    const { status, body } = await get(`/channels/${channel}/messages${query}`);
    expect(status).toBe(200);
    return body as { id: string; content: string; guild_id?: string; author: { id: string } }[];
  };
  const idsOf = (list: { id: string }[]) => list.map((m) => m.id);

  beforeAll(async () => {
    discord = await startFakeDiscord(TOKEN);
    ids = Array.from({ length: 60 }, (_, i) => discord.message({ from: ANN, text: `m${i}` }));
    dm = discord.dmChannelOf(ANN);
  });
  afterAll(() => discord.close());

  it('answers the latest 50 by default, newest first', async () => {
    const page = await messages('');
    expect(idsOf(page)).toEqual(ids.slice(10).reverse());
    expect(page[0]).toMatchObject({ content: 'm59', channel_id: dm, author: { id: ANN } });
  });

  it('with after: the page right after that id (not the latest), newest first', async () => {
    expect(idsOf(await messages(`?after=${ids[4]}&limit=3`))).toEqual([ids[7], ids[6], ids[5]]);
    expect(idsOf(await messages(`?after=${ids[57]}&limit=100`))).toEqual([ids[59], ids[58]]);
    expect(await messages(`?after=${ids[59]}`)).toEqual([]);
    expect(await messages('?after=0&limit=100')).toHaveLength(60);
  });

  it('with before: the page right before that id, newest first', async () => {
    expect(idsOf(await messages(`?before=${ids[10]}&limit=3`))).toEqual([ids[9], ids[8], ids[7]]);
    expect(await messages(`?before=${ids[0]}`)).toEqual([]);
  });

  it('limit is 1 to 100; anything else is an Invalid Form Body naming limit', async () => {
    expect(await messages('?limit=1')).toHaveLength(1);
    expect(await messages('?limit=100')).toHaveLength(60);
    for (const limit of ['0', '101', '-1', 'abc', '1.5', '', '99999999999999999999']) {
      const { status, body } = await get(`/channels/${dm}/messages?limit=${limit}`);
      expect(status, limit).toBe(400);
      expect(body, limit).toMatchObject({
        code: 50035,
        message: 'Invalid Form Body',
        errors: { limit: { _errors: [{ code: expect.stringMatching(/^NUMBER_TYPE_/) }] } },
      });
    }
  });

  it('refuses an id that is not a snowflake, and before and after together', async () => {
    for (const query of ['?after=abc', '?before=-5', '?after=1e9', `?after=${'9'.repeat(21)}`]) {
      const { status, body } = await get(`/channels/${dm}/messages${query}`);
      expect(status, query).toBe(400);
      expect(body, query).toMatchObject({ code: 50035 });
    }
    expect((await get(`/channels/${dm}/messages?after=1&before=${ids[3]}`)).status).toBe(400);
  });

  it('an unknown channel is 404 Unknown Channel; one the bot lost is 403 Missing Access', async () => {
    expect(await get('/channels/123456789/messages')).toEqual({
      status: 404,
      body: { code: 10003, message: 'Unknown Channel' },
    });
    expect(await get('/channels/123456789')).toMatchObject({ status: 404 });
    expect((await get(`/channels/${dm}/messages`, 'forged.token')).status).toBe(401);
    const other = discord.dmChannelOf('930000000000000777');
    discord.revokeAccess(other);
    expect(await get(`/channels/${other}/messages`)).toEqual({
      status: 403,
      body: { code: 50001, message: 'Missing Access' },
    });
  });

  it('holds the bot’s own sends; guild messages come without guild_id over REST', async () => {
    const sent = await fetch(`${discord.apiUrl}/v10/channels/${discord.guildChannelId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bot ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'from the bot' }),
    });
    expect(sent.status).toBe(200);
    discord.message({ from: ANN, guild: true, text: 'in the guild' });
    const page = await messages('?limit=2', discord.guildChannelId);
    expect(page.map((m) => [m.author.id, m.content])).toEqual([
      [ANN, 'in the guild'],
      [discord.bot.id, 'from the bot'],
    ]);
    expect(page.every((m) => m.guild_id === undefined)).toBe(true);
  });

  it('GET /channels/{id}: a DM with its recipient, the guild’s text channel with its guild', async () => {
    expect((await get(`/channels/${dm}`)).body).toMatchObject({
      id: dm,
      type: 1,
      last_message_id: ids[59],
      recipients: [{ id: ANN }],
    });
    expect((await get(`/channels/${discord.guildChannelId}`)).body).toMatchObject({
      id: discord.guildChannelId,
      type: 0,
      guild_id: discord.guildId,
    });
  });
});
