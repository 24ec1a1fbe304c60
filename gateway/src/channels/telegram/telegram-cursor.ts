/**
 * The Telegram channel's cursor (kept by the channel service in the database): the bot's user id
 * and the last `update_id` confirmed to the Bot API, with when. After a restart — or on a peer
 * taking the channel over — polling goes on from there, so an update whose confirmation was lost
 * is not handed out (and answered) again.
 */
import { z } from 'zod';

/**
 * A cursor older than this is not used: the Bot API keeps unconfirmed updates for 24 hours, so
 * nothing it could hand out again is older — and after a week without updates it numbers them
 * afresh, which an old position must not skip.
 */
export const TELEGRAM_CURSOR_MAX_AGE_MS = 86_400_000;

/** Longest cursor read (three numbers take under 100 characters). */
const CURSOR_MAX_LENGTH = 200;

const cursorSchema = z.strictObject({
  bot: z.number().int().positive(),
  update_id: z.number().int().min(0),
  /** Epoch milliseconds of the confirmation. */
  at: z.number().int().min(0),
});

/**
 * The last update_id confirmed for the bot `botId` that is still worth polling after; undefined
 * for no cursor, another bot's (the token was changed), one older than a day, or anything that
 * does not parse as one.
 */
export function readTelegramCursor(
  value: string | undefined,
  botId: number,
  now: number,
): number | undefined {
  if (value === undefined || value.length > CURSOR_MAX_LENGTH) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return undefined;
  }
  const parsed = cursorSchema.safeParse(json);
  if (!parsed.success || parsed.data.bot !== botId) return undefined;
  if (now - parsed.data.at > TELEGRAM_CURSOR_MAX_AGE_MS) return undefined;
  return parsed.data.update_id;
}

/** The cursor to store once `updateId` was confirmed at `now` by the bot `botId`. */
export function writeTelegramCursor(botId: number, updateId: number, now: number): string {
  return JSON.stringify({ bot: botId, update_id: updateId, at: now });
}
