/**
 * What one Discord gateway connection may make the gateway hold. discord.js caches what the
 * gateway sends (guilds, their channels, roles, members, threads; users; DM channels), most of it
 * in caches it does not let us bound; Discord's own limits are far below these, so more comes
 * from a broken or forged far end. Each raw dispatch is checked before discord.js handles it
 * (its `raw` event comes first): an over-long list is cut to the cap (counted), and more guilds
 * than one connection can have refuses the connection.
 */
import { Options } from 'discord.js';

export const DISCORD_CAPS = {
  /** Guilds of one connection: Discord requires sharding past 2,500 (Hearth runs one shard). */
  guilds: 2_500,
  /** Entries of one list of a GUILD_CREATE (Discord allows 500 channels and 250 roles). */
  listEntries: 1_000,
  /** DM channels kept (and which user each is with), the least recently used dropped. */
  dmChannels: 5_000,
  /** Users kept in discord.js's cache (each message's author and mentions add one). */
  users: 5_000,
} as const;

/** The lists of a GUILD_CREATE that discord.js caches. */
const GUILD_LISTS = [
  'channels',
  'threads',
  'roles',
  'emojis',
  'stickers',
  'members',
  'presences',
  'voice_states',
  'stage_instances',
  'guild_scheduled_events',
  'soundboard_sounds',
] as const;

export interface DispatchVerdict {
  /** Lists cut to `listEntries` (`channels: 40000`). */
  trimmed: string[];
  /** Why the connection is refused (too many guilds), if it is. */
  fatal?: string;
}

const tooManyGuilds = (count: number | string) =>
  `the Discord gateway sent ${count} guilds: one connection serves at most ${DISCORD_CAPS.guilds} (Discord requires sharding past that)`;

/**
 * Checks (and cuts, in place, before discord.js reads it) one raw dispatch. `guilds` is what the
 * client holds now.
 */
export function capDispatch(
  packet: { t?: unknown; d?: unknown },
  guilds: { readonly size: number; has(id: string): boolean },
): DispatchVerdict {
  const verdict: DispatchVerdict = { trimmed: [] };
  const d = packet.d;
  if (typeof d !== 'object' || d === null) return verdict;
  const data = d as Record<string, unknown>;
  if (packet.t === 'READY' && Array.isArray(data.guilds)) {
    if (data.guilds.length > DISCORD_CAPS.guilds) {
      verdict.fatal = tooManyGuilds(data.guilds.length);
      data.guilds.length = 0; // none of them is cached
    }
    return verdict;
  }
  if (packet.t !== 'GUILD_CREATE') return verdict;
  if (typeof data.id === 'string' && !guilds.has(data.id) && guilds.size >= DISCORD_CAPS.guilds)
    verdict.fatal = tooManyGuilds(`more than ${DISCORD_CAPS.guilds}`);
  for (const key of GUILD_LISTS) {
    const list = data[key];
    if (!Array.isArray(list) || list.length <= DISCORD_CAPS.listEntries) continue;
    verdict.trimmed.push(`${key}: ${list.length}`);
    list.length = DISCORD_CAPS.listEntries;
  }
  return verdict;
}

/**
 * The caches discord.js lets us bound: messages (Hearth reads none back), members and users
 * (the bot's own kept), and what a text bot never uses.
 */
export function boundedCaches(botId: () => string | undefined) {
  const notMe = { keepOverLimit: (entry: { id: string }) => entry.id === botId() };
  return Options.cacheWithLimits({
    ...Options.DefaultMakeCacheSettings,
    MessageManager: 10,
    UserManager: { maxSize: DISCORD_CAPS.users, ...notMe },
    GuildMemberManager: { maxSize: 200, ...notMe },
    PresenceManager: 0,
    ReactionManager: 0,
    ReactionUserManager: 0,
    VoiceStateManager: 0,
    ThreadMemberManager: 0,
    GuildEmojiManager: 0,
    GuildStickerManager: 0,
    GuildScheduledEventManager: 0,
    StageInstanceManager: 0,
    GuildInviteManager: 0,
    GuildBanManager: 0,
    AutoModerationRuleManager: 0,
    ApplicationCommandManager: 0,
  });
}
