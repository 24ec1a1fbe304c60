/**
 * The Discord channel's cursor (kept by the channel service in the database): the bot's user id
 * and, per Discord channel the bot received from, the id of the last message handed over. After
 * a restart, or on a peer taking the channel over, what came after those ids was missed.
 */
import { z } from 'zod';
import { compareSnowflakes, isSnowflake } from './snowflake.ts';

/** Channel id → the id of the last message handed over in it. */
export type ChannelPositions = Map<string, string>;

/** Channels a cursor keeps; past it, the one whose last message is oldest is dropped. */
export const CURSOR_CHANNELS = 100;

/** Longest cursor read: 100 channels of two 20-digit ids take under 5 KB. */
const CURSOR_MAX_LENGTH = 8_192;

const snowflake = z.string().refine(isSnowflake, 'not a snowflake');

/** An object whose own keys are all snowflakes (a record alone drops a `__proto__` key unseen). */
const snowflakeKeyed = z.custom<object>(
  (value) => typeof value === 'object' && value !== null && Object.keys(value).every(isSnowflake),
);

const cursorSchema = z.strictObject({
  bot: snowflake,
  channels: snowflakeKeyed
    .pipe(z.record(snowflake, snowflake))
    .refine((channels) => Object.keys(channels).length <= CURSOR_CHANNELS, 'too many channels'),
});

/**
 * The positions a stored cursor holds for the bot `botUserId`; undefined for no cursor, another
 * bot account's (the channel's token was changed), or anything that does not parse as one.
 */
export function readDiscordCursor(
  value: string | undefined,
  botUserId: string,
): ChannelPositions | undefined {
  if (value === undefined || value.length > CURSOR_MAX_LENGTH) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return undefined;
  }
  const parsed = cursorSchema.safeParse(json);
  if (!parsed.success || parsed.data.bot !== botUserId) return undefined;
  return new Map(Object.entries(parsed.data.channels));
}

/** The cursor to store for `positions` of the bot `botUserId`. */
export function writeDiscordCursor(botUserId: string, positions: ChannelPositions): string {
  return JSON.stringify({ bot: botUserId, channels: Object.fromEntries(positions) });
}

/**
 * Records that `messageId` was handed over in `channelId` (a position only moves forward), and
 * keeps the `CURSOR_CHANNELS` channels whose last message is the most recent.
 */
export function advancePosition(
  positions: ChannelPositions,
  channelId: string,
  messageId: string,
): void {
  const known = positions.get(channelId);
  if (known === undefined || compareSnowflakes(messageId, known) > 0)
    positions.set(channelId, messageId);
  trimPositions(positions);
}

/** The later position of each channel of either, trimmed to `CURSOR_CHANNELS`. */
export function mergePositions(a: ChannelPositions, b: ChannelPositions): ChannelPositions {
  const merged = new Map(a);
  for (const [channelId, messageId] of b) advancePosition(merged, channelId, messageId);
  return merged;
}

/** The positions, the channel whose last message is oldest first. */
export function oldestFirst(positions: ChannelPositions): [string, string][] {
  return [...positions].sort(([, a], [, b]) => compareSnowflakes(a, b));
}

function trimPositions(positions: ChannelPositions): void {
  if (positions.size <= CURSOR_CHANNELS) return;
  for (const [channelId] of oldestFirst(positions).slice(0, positions.size - CURSOR_CHANNELS))
    positions.delete(channelId);
}
