/**
 * What a Discord channel missed while no gateway was connected: for each channel in the cursor,
 * the messages after the last one handed over, fetched over REST (`GET
 * /channels/{id}/messages?after=&limit=100`) and handed over oldest first.
 */
import { DiscordAPIError, RESTJSONErrorCodes, type Client, type Message } from 'discord.js';
import type { Logger } from 'pino';
import { oldestFirst, type ChannelPositions } from './discord-cursor.ts';
import { compareSnowflakes } from './snowflake.ts';

/** Most messages caught up in one channel (one REST page): past it, the latest are answered. */
export const CATCH_UP_LIMIT = 100;

export interface CatchUpDeps {
  client: Client<true>;
  /** The channels to catch up, each with the id of the last message handed over in it. */
  positions: ChannelPositions;
  /** The live path: the message is checked, handed over and the cursor moved. */
  handOver(message: Message): Promise<void>;
  /** A channel that could not be caught up: counted and logged. */
  rejected(reason: string): void;
  logger: Logger;
  /** False once the connection is closed: the catch-up stops there. */
  live(): boolean;
}

export interface CatchUpResult {
  /** Messages fetched and passed to `handOver`. */
  fetched: number;
  /** Channels that failed. */
  failed: string[];
  /** Channels that are gone for this bot (unknown, or no access): no use keeping them. */
  gone: string[];
}

/** Catches up every channel of the cursor, the one whose last message is oldest first. */
export async function catchUp(deps: CatchUpDeps): Promise<CatchUpResult> {
  const result: CatchUpResult = { fetched: 0, failed: [], gone: [] };
  for (const [channelId, after] of oldestFirst(deps.positions)) {
    if (!deps.live()) break;
    try {
      const missed = await missedIn(deps, channelId, after);
      for (const message of missed) {
        if (!deps.live()) break;
        result.fetched += 1;
        await deps.handOver(message);
      }
    } catch (error) {
      if (!deps.live()) break; // the client was closed under the fetch
      result.failed.push(channelId);
      deps.rejected(`catch-up of channel ${channelId} failed: ${explain(error)}`);
      if (isGone(error)) result.gone.push(channelId);
    }
  }
  return result;
}

/** The messages of `channelId` after `after`, oldest first; the latest 100 past that many. */
async function missedIn(deps: CatchUpDeps, channelId: string, after: string): Promise<Message[]> {
  const channel = await deps.client.channels.fetch(channelId);
  if (!channel?.isTextBased()) throw new Error('not a text channel');
  // Discord answers the page right after `after`: a full page may leave more behind it.
  const page = await channel.messages.fetch({ after, limit: CATCH_UP_LIMIT, cache: false });
  let missed = [...page.values()];
  if (page.size >= CATCH_UP_LIMIT) {
    const latest = await channel.messages.fetch({ limit: CATCH_UP_LIMIT, cache: false });
    const newestOfPage = missed.reduce(
      (a, m) => (compareSnowflakes(m.id, a) > 0 ? m.id : a),
      after,
    );
    // The two pages touch when the latest reaches back into the first: nothing between them.
    const gap = [...latest.keys()].every((id) => compareSnowflakes(id, newestOfPage) > 0);
    missed = [...new Map([...page, ...latest]).values()];
    if (gap || missed.length > CATCH_UP_LIMIT)
      deps.logger.warn(
        { channel: channelId, after },
        `more than ${CATCH_UP_LIMIT} messages were missed in a Discord channel: ` +
          `the latest ${CATCH_UP_LIMIT} are answered, the earlier ones are not`,
      );
  }
  // Only what this channel holds after the position, whatever the far end answered.
  return missed
    .filter((m) => m.channelId === channelId && compareSnowflakes(m.id, after) > 0)
    .sort((a, b) => compareSnowflakes(a.id, b.id))
    .slice(-CATCH_UP_LIMIT);
}

/** Unknown Channel (10003) or Missing Access (50001): the bot will not read it again. */
const isGone = (error: unknown) =>
  error instanceof DiscordAPIError &&
  (error.code === RESTJSONErrorCodes.UnknownChannel ||
    error.code === RESTJSONErrorCodes.MissingAccess);

const explain = (error: unknown) =>
  error instanceof DiscordAPIError
    ? `${error.status} ${String(error.code)} ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
