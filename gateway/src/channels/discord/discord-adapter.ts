import {
  Client,
  Events,
  GatewayDispatchEvents,
  GatewayIntentBits,
  MessageFlags,
  Partials,
  REST,
  Routes,
  type APIChannel,
  type Message,
  type RESTOptions,
  type RESTPostAPIChannelMessageJSONBody,
} from 'discord.js';
import { cappedFetch } from '../../http/outbound/capped-body.ts';
import type { ChannelConfig } from '../../config/schema.ts';
import type { AdapterIo, ChannelAdapter, ChannelLink, InboundMessage } from '../ports.ts';
import { boundedCaches, capDispatch, DISCORD_CAPS } from './discord-caps.ts';
import { catchUp } from './discord-catch-up.ts';
import { FRAME_TOO_LARGE, frameCappedStrategy } from './frame-cap.ts';
import {
  advancePosition,
  mergePositions,
  readDiscordCursor,
  writeDiscordCursor,
  type ChannelPositions,
} from './discord-cursor.ts';
import { isSnowflake } from './snowflake.ts';

type DiscordConfig = Extract<ChannelConfig, { type: 'discord' }>;

/** Discord's limit for one message's `content`. */
export const DISCORD_TEXT_LIMIT = 2000;
/** Longest inbound text taken (Nitro users may send 4000; anything longer is forged). */
export const DISCORD_INBOUND_LIMIT = 4000;

export interface DiscordOptions {
  /** How long the first READY may take before `connect` gives up. */
  readyTimeoutMs?: number;
}

/**
 * The inbound message of a MESSAGE_CREATE, or a reason to refuse it, or undefined for what is
 * simply not for the agent (the bot's own and other bots' messages, system messages, empty
 * content such as attachment-only posts).
 */
export function toInbound(
  message: Message,
  botUserId: string,
): InboundMessage | { refused: string } | undefined {
  // Shapes are checked on the raw dispatch (malformedDispatch): nothing more to count here.
  if (!message.author || typeof message.content !== 'string') return undefined;
  if (message.author.bot || message.system || message.author.id === botUserId) return undefined;
  if (message.content.trim() === '') return undefined;
  if (message.content.length > DISCORD_INBOUND_LIMIT)
    return { refused: `message ${message.id}: ${message.content.length} characters` };
  const direct = message.guildId === null;
  const mentioned =
    message.mentions.users.has(botUserId) || message.mentions.repliedUser?.id === botUserId;
  return {
    id: message.id,
    // A DM's replies go to the sender (a DM channel is opened for it); a guild's to the channel.
    chatId: direct ? message.author.id : message.channelId,
    senderId: message.author.id,
    senderName: message.author.globalName ?? message.author.username,
    text: stripMention(message.content, botUserId),
    direct,
    mentioned,
  };
}

const KNOWN_DISPATCHES = new Set<string>(Object.values(GatewayDispatchEvents));

/** Message ids remembered as seen: a catch-up of 100 channels brings at most 10,000. */
const SEEN_IDS = 20_000;

/**
 * The largest REST answer read (a page of 100 messages of 4,000 characters, with their authors
 * and mentions, stays well under it); counted as it streams.
 */
export const MAX_REST_ANSWER_BYTES = 8 * 1024 * 1024;

/** Sets `key` as the most recent entry of `map`; past `max`, the oldest goes (and is returned). */
function touch<K, V>(map: Map<K, V>, key: K, value: V, max: number): [K, V] | undefined {
  map.delete(key);
  map.set(key, value);
  if (map.size <= max) return undefined;
  const oldest = map.entries().next();
  if (oldest.done) return undefined;
  map.delete(oldest.value[0]);
  return oldest.value;
}

/**
 * Why a raw gateway dispatch is refused: a type this API version does not define, or a
 * MESSAGE_CREATE without the fields every message has. Undefined when it is fine.
 */
export function malformedDispatch(packet: { t?: unknown; d?: unknown }): string | undefined {
  if (typeof packet.t !== 'string') return undefined; // not a dispatch (HELLO, ACK, …)
  if (!KNOWN_DISPATCHES.has(packet.t)) return `unknown dispatch ${packet.t.slice(0, 64)}`;
  if (packet.t !== 'MESSAGE_CREATE') return undefined;
  const d = packet.d as Record<string, unknown> | null;
  const author = d?.author as Record<string, unknown> | undefined;
  if (
    !d ||
    !isSnowflake(d.id) ||
    !isSnowflake(d.channel_id) ||
    typeof d.content !== 'string' ||
    !isSnowflake(author?.id)
  )
    return 'malformed MESSAGE_CREATE (id, channel_id, author.id and content are required)';
  return undefined;
}

/** `<@id> hi` → `hi`: the mention that addressed the bot is not part of what was said. */
function stripMention(text: string, botUserId: string): string {
  const stripped = text.replaceAll(new RegExp(`<@!?${botUserId}>`, 'g'), '').trim();
  return stripped === '' ? text : stripped;
}

/**
 * Discord through discord.js: the gateway WebSocket (HELLO, IDENTIFY with the Message Content
 * intent, heartbeats, RESUME after a drop or a RECONNECT, a new IDENTIFY after an invalid
 * session — all discord.js's) and the REST API (`rest_api_url`; the gateway URL comes from its
 * `GET /gateway/bot`). 429s are waited out by discord.js's REST queue with the server's
 * `retry_after`. One gateway connection per bot token (`exclusive`).
 *
 * The channel's cursor (kept in the database) holds, per Discord channel the bot received from,
 * the last message handed over. Once a new connection is ready, what came after those went
 * unanswered while no gateway was connected (a restart, or a peer taking the channel over): it is
 * fetched and handed over first, oldest first; live messages wait for it, and a message both
 * fetched and delivered live is handed over once.
 */
export function createDiscordAdapter(
  config: DiscordConfig,
  io: AdapterIo,
  options: DiscordOptions = {},
): ChannelAdapter {
  /** The connected client; `client` is the last one built (its cache outlives it). */
  let live: Client | undefined;
  let client: Client | undefined;
  /** User id → its DM channel's id (replies to a DM go to the sender's user id); bounded. */
  const dmChannels = new Map<string, string>();
  /** DM channels discord.js cached, least recently used first: past the cap one is dropped. */
  const cachedDms = new Map<string, true>();
  /** discord.js's REST client reads answers through this: each counted as it streams. */
  const restFetch = cappedFetch(io.fetch, {
    maxBytes: MAX_REST_ANSWER_BYTES,
    what: 'a Discord REST answer',
  }) as unknown as RESTOptions['makeRequest'];

  /** Each channel's last message handed over: what the cursor holds. */
  let positions: ChannelPositions = new Map();
  /** Messages seen lately (handed over, refused or ignored), by id. */
  const seen = new Set<string>();

  function remember(id: string): void {
    seen.add(id);
    if (seen.size > SEEN_IDS) for (const old of [...seen].slice(0, SEEN_IDS / 10)) seen.delete(old);
  }

  /**
   * The one path of every message, live or caught up: checked, handed over, and the channel's
   * position written once the service stored it. Called one message at a time.
   */
  async function handOver(made: Client, next: ChannelLink, message: Message): Promise<void> {
    if (seen.has(message.id)) return;
    remember(message.id);
    const botUserId = made.user?.id ?? '';
    let inbound: ReturnType<typeof toInbound>;
    try {
      inbound = toInbound(message, botUserId);
    } catch (error) {
      next.rejected(`message ${message.id}: ${String(error)}`);
      return;
    }
    if (!inbound) return;
    if ('refused' in inbound) return next.rejected(inbound.refused);
    if (inbound.direct)
      touch(dmChannels, inbound.senderId, message.channelId, DISCORD_CAPS.dmChannels);
    try {
      await next.receive(inbound);
    } catch (error) {
      next.rejected(String(error));
      return;
    }
    advancePosition(positions, message.channelId, message.id);
    await next.cursor.write(writeDiscordCursor(botUserId, positions));
  }

  /**
   * `caughtUp` settles once the catch-up is done: live messages are handed over after it.
   * `refused` is told when the far end sends more than a connection may have (discord-caps.ts).
   */
  function makeClient(
    next: ChannelLink,
    caughtUp: Promise<void>,
    refused: (reason: string) => void,
  ): Client {
    const made: Client = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.DirectMessages,
        GatewayIntentBits.MessageContent,
      ],
      // DM channels are not in the cache until a message arrives in one.
      partials: [Partials.Channel],
      makeCache: boundedCaches(() => made.user?.id),
      rest: { api: config.rest_api_url, makeRequest: restFetch },
      // ws's default frame cap is 100 MiB; discord.js has no option for it (frame-cap.ts).
      ws: {
        buildStrategy: frameCappedStrategy({
          maxBytes: config.max_frame_bytes,
          unavailable: refused,
        }),
      },
    });
    let receiving = caughtUp;
    made.on(Events.MessageCreate, (message) => {
      // One at a time, in order: each cursor write follows the one before.
      receiving = receiving
        .then(() => handOver(made, next, message))
        .catch((error: unknown) => next.rejected(`message ${message.id}: ${String(error)}`));
    });
    // Before discord.js handles (and caches) the dispatch.
    made.on(Events.Raw, (packet: { t?: unknown; d?: unknown }) => {
      const malformed = malformedDispatch(packet);
      if (malformed) next.rejected(malformed);
      const verdict = capDispatch(packet, made.guilds.cache);
      for (const list of verdict.trimmed)
        next.rejected(`GUILD_CREATE list cut to ${DISCORD_CAPS.listEntries} entries (${list})`);
      if (verdict.fatal) refused(verdict.fatal);
      forgetOldDms(made, packet);
    });
    /** Why the connection went, when the far end was refused (kept through the reconnect). */
    let closedFor: string | undefined;
    const up = () => {
      closedFor = undefined;
      next.health(true);
    };
    made.on(Events.ShardReady, up);
    made.on(Events.ShardResume, up);
    made.on(Events.ShardReconnecting, () =>
      next.health(
        false,
        closedFor ? `Discord gateway reconnecting: ${closedFor}` : 'Discord gateway reconnecting',
      ),
    );
    made.on(Events.ShardError, (error) => {
      if ((error as { code?: unknown }).code === FRAME_TOO_LARGE) {
        // ws closed the connection (1009) before reading the frame whole; discord.js reconnects.
        closedFor = `the Discord gateway sent a frame larger than ${config.max_frame_bytes} bytes: the connection was closed`;
        io.refused?.('frame_bytes');
        next.rejected(closedFor);
        next.health(false, closedFor);
        return;
      }
      next.health(false, `Discord gateway error: ${error.message}`);
    });
    // A close discord.js will not recover from (bad token, disallowed intents).
    made.on(Events.ShardDisconnect, (event) => {
      if (live === made && made.isReady())
        next.lost(new Error(`Discord gateway closed for good (${event.code})`));
    });
    made.on(Events.Error, (error) => next.rejected(`discord.js: ${error.message}`));
    return made;
  }

  /** Keeps the DM channels discord.js caches to the latest `dmChannels` (a DM's MESSAGE_CREATE). */
  function forgetOldDms(made: Client, packet: { t?: unknown; d?: unknown }): void {
    if (packet.t !== 'MESSAGE_CREATE' || typeof packet.d !== 'object' || packet.d === null) return;
    const { guild_id: guildId, channel_id: channelId } = packet.d as Record<string, unknown>;
    if (guildId !== undefined || typeof channelId !== 'string') return;
    const dropped = touch(cachedDms, channelId, true, DISCORD_CAPS.dmChannels);
    if (dropped && made.channels.cache.get(dropped[0])?.isDMBased())
      made.channels.cache.delete(dropped[0]);
  }

  // Sending needs no gateway connection: its own REST client keeps working after `disconnect`,
  // so replies to turns still running while a channel winds down go out.
  const rest = new REST({ api: config.rest_api_url, makeRequest: restFetch }).setToken(
    config.bot_token,
  );

  async function channelFor(chatId: string): Promise<string> {
    // The last client's cache outlives its connection (guild channels from GUILD_CREATE).
    if (client?.channels.cache.has(chatId)) return chatId;
    const known = dmChannels.get(chatId);
    if (known) return known;
    // Not a channel we know: a user id, whose DM channel is opened (or found) now.
    const dm = (await rest.post(Routes.userChannels(), {
      body: { recipient_id: chatId },
    })) as APIChannel;
    touch(dmChannels, chatId, dm.id, DISCORD_CAPS.dmChannels);
    return dm.id;
  }

  /**
   * Hands over what each channel of the cursor missed. The very first connect has no cursor and
   * answers no history; a cursor of another bot account, or a broken one, is none.
   */
  async function catchUpFrom(made: Client, next: ChannelLink, stored: string | undefined) {
    if (!made.isReady()) return;
    const bot = made.user.id;
    const read = readDiscordCursor(stored, bot);
    if (stored !== undefined && !read)
      io.logger.warn('discord cursor ignored (another bot account’s, or unreadable): no catch-up');
    // What this process handed over itself counts too (a cursor write may have failed).
    positions = mergePositions(positions, read ?? new Map<string, string>());
    const channels = positions.size;
    if (channels === 0) return;
    const result = await catchUp({
      client: made,
      positions: new Map(positions),
      handOver: (message) => handOver(made, next, message),
      rejected: (reason) => next.rejected(reason),
      logger: io.logger,
      live: () => live === made,
    });
    for (const channelId of result.gone) positions.delete(channelId);
    if (result.gone.length > 0) await next.cursor.write(writeDiscordCursor(bot, positions));
    io.logger.info({ channels, ...result }, 'discord catch-up done');
  }

  return {
    type: 'discord',
    maxTextLength: DISCORD_TEXT_LIMIT,
    // Discord allows one gateway session per bot token and shard.
    exclusive: true,
    async connect(next) {
      // Read first: a database that cannot answer fails the connect, and the service retries.
      const stored = await next.cursor.read();
      let caughtUp!: () => void;
      /** While connecting, a refusal fails the connect; once connected, the connection is lost. */
      let refuseConnect: ((error: Error) => void) | undefined;
      const made = makeClient(
        next,
        new Promise<void>((resolve) => (caughtUp = resolve)),
        (reason) => {
          next.rejected(reason);
          if (refuseConnect) refuseConnect(new Error(reason));
          else if (live === made) next.lost(new Error(reason));
        },
      );
      client = made;
      live = made;
      let timer: NodeJS.Timeout | undefined;
      const ready = new Promise<void>((resolve, reject) => {
        refuseConnect = reject;
        timer = setTimeout(
          () => reject(new Error('Discord gateway: no READY in time')),
          options.readyTimeoutMs ?? 30_000,
        );
        made.once(Events.ClientReady, () => resolve());
        // Before READY: a refusal (4004 bad token, 4014 Message Content not enabled) fails connect.
        made.once(Events.ShardDisconnect, (event) =>
          reject(new Error(`Discord gateway refused the connection (close code ${event.code})`)),
        );
      });
      ready.catch(() => undefined); // awaited below unless login fails first
      try {
        await made.login(config.bot_token);
        await ready;
      } catch (error) {
        live = undefined;
        caughtUp();
        await made.destroy();
        throw error;
      } finally {
        clearTimeout(timer);
        refuseConnect = undefined;
      }
      io.logger.info({ bot: made.user?.username }, 'discord gateway ready');
      void catchUpFrom(made, next, stored)
        .catch((error: unknown) => next.rejected(`discord catch-up: ${String(error)}`))
        .finally(caughtUp);
    },
    async disconnect() {
      const current = live;
      live = undefined;
      await current?.destroy();
    },
    async sendText(chatId, text) {
      const body: RESTPostAPIChannelMessageJSONBody = {
        content: text,
        allowed_mentions: { parse: [] },
        // No embeds: Discord would fetch a URL the agent wrote (Hearth issue #27).
        flags: MessageFlags.SuppressEmbeds,
      };
      await rest.post(Routes.channelMessages(await channelFor(chatId)), { body });
    },
    async typing(chatId) {
      await rest.post(Routes.channelTyping(await channelFor(chatId)));
    },
  };
}
