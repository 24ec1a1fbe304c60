import {
  Client,
  Events,
  GatewayDispatchEvents,
  GatewayIntentBits,
  Partials,
  REST,
  Routes,
  type APIChannel,
  type Message,
  type RESTPostAPIChannelMessageJSONBody,
} from 'discord.js';
import type { ChannelConfig } from '../../config/schema.ts';
import type { AdapterIo, ChannelAdapter, ChannelLink, InboundMessage } from '../ports.ts';

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
const isSnowflake = (value: unknown) => typeof value === 'string' && /^\d{1,20}$/.test(value);

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
 */
export function createDiscordAdapter(
  config: DiscordConfig,
  io: AdapterIo,
  options: DiscordOptions = {},
): ChannelAdapter {
  /** The connected client; `client` is the last one built (its cache outlives it). */
  let live: Client | undefined;
  let client: Client | undefined;
  /** User id → its DM channel's id (replies to a DM go to the sender's user id). */
  const dmChannels = new Map<string, string>();

  function makeClient(next: ChannelLink): Client {
    const made = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.DirectMessages,
        GatewayIntentBits.MessageContent,
      ],
      // DM channels are not in the cache until a message arrives in one.
      partials: [Partials.Channel],
      rest: { api: config.rest_api_url },
    });
    made.on(Events.MessageCreate, (message) => {
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
      if (inbound.direct) dmChannels.set(inbound.senderId, message.channelId);
      next.receive(inbound).catch((error: unknown) => next.rejected(String(error)));
    });
    made.on(Events.Raw, (packet: { t?: unknown; d?: unknown }) => {
      const refused = malformedDispatch(packet);
      if (refused) next.rejected(refused);
    });
    made.on(Events.ShardReady, () => next.health(true));
    made.on(Events.ShardResume, () => next.health(true));
    made.on(Events.ShardReconnecting, () => next.health(false, 'Discord gateway reconnecting'));
    made.on(Events.ShardError, (error) => {
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

  // Sending needs no gateway connection: its own REST client keeps working after `disconnect`,
  // so replies to turns still running while a channel winds down go out.
  const rest = new REST({ api: config.rest_api_url }).setToken(config.bot_token);

  async function channelFor(chatId: string): Promise<string> {
    // The last client's cache outlives its connection (guild channels from GUILD_CREATE).
    if (client?.channels.cache.has(chatId)) return chatId;
    const known = dmChannels.get(chatId);
    if (known) return known;
    // Not a channel we know: a user id, whose DM channel is opened (or found) now.
    const dm = (await rest.post(Routes.userChannels(), {
      body: { recipient_id: chatId },
    })) as APIChannel;
    dmChannels.set(chatId, dm.id);
    return dm.id;
  }

  return {
    type: 'discord',
    maxTextLength: DISCORD_TEXT_LIMIT,
    // Discord allows one gateway session per bot token and shard.
    exclusive: true,
    async connect(next) {
      const made = makeClient(next);
      client = made;
      live = made;
      let timer: NodeJS.Timeout | undefined;
      const ready = new Promise<void>((resolve, reject) => {
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
        await made.destroy();
        throw error;
      } finally {
        clearTimeout(timer);
      }
      io.logger.info({ bot: made.user?.username }, 'discord gateway ready');
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
      };
      await rest.post(Routes.channelMessages(await channelFor(chatId)), { body });
    },
    async typing(chatId) {
      await rest.post(Routes.channelTyping(await channelFor(chatId)));
    },
  };
}
