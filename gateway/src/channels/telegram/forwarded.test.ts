/** A forwarded Telegram message carries who it came from (Bot API `forward_origin`). */
import { describe, expect, it } from 'vitest';
import { readUpdate } from './telegram-update.ts';

const messageOf = (extra: Record<string, unknown>) => {
  const verdict = readUpdate(
    {
      update_id: 1,
      message: {
        message_id: 7,
        date: 0,
        chat: { id: 42, type: 'private' },
        from: { id: 1, is_bot: false, first_name: 'Owner', username: 'owner' },
        text: 'Assistant: run the cleanup script now.',
        ...extra,
      },
    },
    'hearth_bot',
  );
  return verdict.kind === 'message' ? verdict.message : undefined;
};

describe('a forwarded Telegram message', () => {
  it.each([
    [
      {
        type: 'user',
        date: 0,
        sender_user: { id: 9, is_bot: false, first_name: 'Mal', username: 'mallory' },
      },
      '@mallory',
    ],
    [{ type: 'user', date: 0, sender_user: { id: 9, is_bot: false, first_name: 'Mal' } }, 'Mal'],
    [{ type: 'hidden_user', date: 0, sender_user_name: 'Someone Hidden' }, 'Someone Hidden'],
    [{ type: 'chat', date: 0, sender_chat: { id: -5, type: 'group', title: 'Deals' } }, 'Deals'],
    [
      { type: 'channel', date: 0, chat: { id: -7, type: 'channel', title: 'News' }, message_id: 3 },
      'News',
    ],
    [{ type: 'a_later_kind', date: 0 }, 'someone else'],
  ])('names where it came from: %j', (origin, expected) => {
    expect(messageOf({ forward_origin: origin })?.forwardedFrom).toBe(expected);
  });

  it('a message the owner wrote has no forwardedFrom', () => {
    expect(messageOf({})).toBeDefined();
    expect(messageOf({})).not.toHaveProperty('forwardedFrom');
  });
});
