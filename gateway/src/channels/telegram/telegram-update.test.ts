/** The Telegram channel's edge: every row of the malformed-update table gets its outcome. */
import { describe, expect, it } from 'vitest';
import {
  IGNORED_UPDATES,
  MALFORMED_MESSAGES,
  MALFORMED_UPDATE_IDS,
} from '../testing/malformed-telegram.ts';
import { readUpdate } from './telegram-update.ts';

const BOT = 'hearth_test_bot';
const numbered = (update: Record<string, unknown>) => ({ update_id: 700, ...update });

describe('reading a Telegram update', () => {
  it.each(MALFORMED_MESSAGES.map((row) => [row.name, row.update] as const))(
    'refuses it, naming the update: %s',
    (_name, update) => {
      const verdict = readUpdate(numbered(update), BOT);
      expect(verdict).toMatchObject({ kind: 'refused', updateId: 700 });
      if (verdict.kind === 'refused') {
        expect(verdict.reason).toMatch(/^malformed update 700: /);
        expect(verdict.reason.length).toBeLessThan(400);
      }
    },
  );

  it.each(IGNORED_UPDATES.map((row) => [row.name, row.update] as const))(
    'takes it and answers nothing: %s',
    (_name, update) => {
      expect(readUpdate(numbered(update), BOT)).toEqual({ kind: 'ignored', updateId: 700 });
    },
  );

  it.each(MALFORMED_UPDATE_IDS.map((row) => [row.name, row.update] as const))(
    'finds no update it could confirm: %s',
    (_name, update) => {
      expect(readUpdate(JSON.parse(JSON.stringify(update)), BOT)).toMatchObject({
        kind: 'unusable',
      });
    },
  );

  it.each([
    ['a string', 'junk'],
    ['an array', []],
    ['null', null],
    ['a number', 5],
  ])('finds no update in %s', (_name, raw) => {
    expect(readUpdate(raw, BOT).kind).toBe('unusable');
  });

  it('reads a well-formed text message, in a group and mentioning the bot', () => {
    const text = `@${BOT} are you there?`;
    expect(
      readUpdate(
        numbered({
          message: {
            message_id: 9,
            date: 0,
            chat: { id: -500, type: 'group', title: 'Team' },
            from: { id: 1001, is_bot: false, first_name: 'Ann', username: 'ann' },
            text,
            entities: [{ type: 'mention', offset: 0, length: BOT.length + 1 }],
            // Fields Hearth does not read may be anything.
            via_bot: 'whatever',
          },
        }),
        BOT,
      ),
    ).toEqual({
      kind: 'message',
      updateId: 700,
      message: {
        id: '-500:9',
        chatId: '-500',
        senderId: '1001',
        senderName: 'ann',
        text,
        direct: false,
        mentioned: true,
      },
    });
  });

  it('takes ids up to 2^53 - 1 exactly, and update_id 0', () => {
    const big = Number.MAX_SAFE_INTEGER;
    const verdict = readUpdate(
      {
        update_id: 0,
        message: {
          message_id: big,
          chat: { id: -big, type: 'supergroup' },
          from: { id: big, is_bot: false, first_name: 'Max' },
          text: 'hi',
        },
      },
      BOT,
    );
    expect(verdict).toMatchObject({
      kind: 'message',
      updateId: 0,
      message: { id: `${-big}:${big}`, chatId: String(-big), senderId: String(big) },
    });
  });
});
