import { describe, expect, it } from 'vitest';
import {
  readTelegramCursor,
  TELEGRAM_CURSOR_MAX_AGE_MS,
  writeTelegramCursor,
} from './telegram-cursor.ts';

const BOT = 7_000_001;
const NOW = 1_800_000_000_000;

describe('the Telegram cursor', () => {
  it('reads back the update_id it was written with', () => {
    expect(readTelegramCursor(writeTelegramCursor(BOT, 912_345, NOW), BOT, NOW + 1_000)).toBe(
      912_345,
    );
  });

  it('is not used for another bot, nor once older than a day', () => {
    const value = writeTelegramCursor(BOT, 5, NOW);
    expect(readTelegramCursor(value, BOT + 1, NOW)).toBeUndefined();
    expect(readTelegramCursor(value, BOT, NOW + TELEGRAM_CURSOR_MAX_AGE_MS)).toBe(5);
    expect(readTelegramCursor(value, BOT, NOW + TELEGRAM_CURSOR_MAX_AGE_MS + 1)).toBeUndefined();
  });

  it.each([
    ['nothing', undefined],
    ['not JSON', '{"bot":'],
    ['another shape', JSON.stringify({ bot: BOT, channels: {} })],
    ['an extra field', JSON.stringify({ bot: BOT, update_id: 1, at: NOW, more: 1 })],
    ['a negative update_id', JSON.stringify({ bot: BOT, update_id: -1, at: NOW })],
    ['an update_id past 2^53', `{"bot":${BOT},"update_id":1152921504606846976,"at":${NOW}}`],
    ['a string update_id', JSON.stringify({ bot: BOT, update_id: '5', at: NOW })],
    [
      'an overlong value',
      JSON.stringify({ bot: BOT, update_id: 1, at: NOW, pad: 'x'.repeat(300) }),
    ],
  ])('reads %s as no cursor', (_name, value) => {
    expect(readTelegramCursor(value, BOT, NOW)).toBeUndefined();
  });
});
