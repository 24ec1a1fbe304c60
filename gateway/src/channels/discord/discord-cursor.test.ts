import { describe, expect, it } from 'vitest';
import {
  advancePosition,
  CURSOR_CHANNELS,
  mergePositions,
  oldestFirst,
  readDiscordCursor,
  writeDiscordCursor,
  type ChannelPositions,
} from './discord-cursor.ts';

const BOT = '900000000000000001';
const channel = (n: number) => String(910_000_000_000_000_000n + BigInt(n));
const message = (n: number) => String(920_000_000_000_000_000n + BigInt(n));

describe('the Discord cursor', () => {
  it('is JSON of the bot’s user id and each channel’s last message handed over, read back as written', () => {
    const positions: ChannelPositions = new Map([
      [channel(1), message(5)],
      [channel(2), message(9)],
    ]);
    const value = writeDiscordCursor(BOT, positions);
    expect(JSON.parse(value)).toEqual({
      bot: BOT,
      channels: { [channel(1)]: message(5), [channel(2)]: message(9) },
    });
    expect(readDiscordCursor(value, BOT)).toEqual(positions);
  });

  it('of another bot account is no cursor (the channel’s token was changed)', () => {
    const value = writeDiscordCursor('900000000000000099', new Map([[channel(1), message(1)]]));
    expect(readDiscordCursor(value, BOT)).toBeUndefined();
  });

  it('that does not parse, or is not of this shape, is no cursor (hostile values)', () => {
    const ok = { [channel(1)]: message(1) };
    const json = (value: unknown) => JSON.stringify(value);
    const tooMany = Object.fromEntries(
      Array.from({ length: CURSOR_CHANNELS + 1 }, (_, i) => [channel(i), message(i)]),
    );
    const hostile = [
      '',
      'garbage',
      `${BOT} ${message(1)}`, // another network's shape
      'null',
      '[]',
      '{}',
      json({ bot: BOT }),
      json({ bot: BOT, channels: [] }),
      json({ bot: BOT, channels: null }),
      json({ bot: Number(BOT), channels: ok }),
      json({ bot: `${BOT} `, channels: ok }),
      json({ bot: BOT, channels: ok, extra: true }),
      '{"bot":"900000000000000001","channels":{"__proto__":"920000000000000001"}}',
      json({ bot: BOT, channels: { 'not-a-channel': message(1) } }),
      json({ bot: BOT, channels: { [channel(1)]: 'abc' } }),
      json({ bot: BOT, channels: { [channel(1)]: '-1' } }),
      json({ bot: BOT, channels: { [channel(1)]: '0' } }),
      json({ bot: BOT, channels: { [channel(1)]: '1e3' } }),
      json({ bot: BOT, channels: { [channel(1)]: ' 1' } }),
      json({ bot: BOT, channels: { [channel(1)]: '18446744073709551616' } }), // 2^64
      json({ bot: BOT, channels: { [channel(1)]: '123456789012345678901' } }), // 21 digits
      json({ bot: BOT, channels: { [channel(1)]: Number(message(1)) } }),
      json({ bot: BOT, channels: { [channel(1)]: { id: message(1) } } }),
      json({ bot: BOT, channels: tooMany }),
      json({ bot: BOT, channels: ok }) + ' '.repeat(10_000), // oversized
      `{"bot":"${BOT}","channels":${'['.repeat(5_000)}`, // deeply nested and cut off
    ];
    for (const value of hostile) expect(readDiscordCursor(value, BOT), value).toBeUndefined();
    expect(readDiscordCursor(undefined, BOT)).toBeUndefined();
    // The largest cursor the adapter writes is still read.
    const largest = Object.fromEntries(
      Array.from({ length: CURSOR_CHANNELS }, (_, i) => [
        String(18_000_000_000_000_000_000n + BigInt(i)),
        String(18_400_000_000_000_000_000n + BigInt(i)),
      ]),
    );
    expect(readDiscordCursor(json({ bot: BOT, channels: largest }), BOT)?.size).toBe(100);
  });

  it('moves a channel’s position only forward, by snowflake value, not by spelling', () => {
    const positions: ChannelPositions = new Map();
    advancePosition(positions, channel(1), '99');
    advancePosition(positions, channel(1), '100');
    advancePosition(positions, channel(1), '98');
    expect(positions.get(channel(1))).toBe('100');
  });

  it('keeps the 100 channels whose last message is the most recent', () => {
    const positions: ChannelPositions = new Map();
    // Channel i's last message is message(1000 - i): the later channels are the least recent.
    for (let i = 0; i < CURSOR_CHANNELS + 20; i += 1)
      advancePosition(positions, channel(i), message(1_000 - i));
    expect(positions.size).toBe(CURSOR_CHANNELS);
    expect(positions.has(channel(0))).toBe(true);
    expect(positions.has(channel(CURSOR_CHANNELS - 1))).toBe(true);
    expect(positions.has(channel(CURSOR_CHANNELS))).toBe(false);
    // A channel that speaks again comes back, and the least recent of the others goes.
    advancePosition(positions, channel(CURSOR_CHANNELS + 5), message(5_000));
    expect(positions.has(channel(CURSOR_CHANNELS + 5))).toBe(true);
    expect(positions.has(channel(CURSOR_CHANNELS - 1))).toBe(false);
    expect(positions.size).toBe(CURSOR_CHANNELS);
  });

  it('merges two views of the positions by the later of each channel, least recent first', () => {
    const mine: ChannelPositions = new Map([
      [channel(1), message(10)],
      [channel(2), message(3)],
    ]);
    const stored: ChannelPositions = new Map([
      [channel(1), message(7)],
      [channel(2), message(30)],
      [channel(3), message(1)],
    ]);
    const merged = mergePositions(mine, stored);
    expect(oldestFirst(merged)).toEqual([
      [channel(3), message(1)],
      [channel(1), message(10)],
      [channel(2), message(30)],
    ]);
    expect(mine.get(channel(2))).toBe(message(3)); // the inputs stay as they were
  });
});
