/**
 * What a hostile or broken Bot API (or whoever reaches the webhook with the secret) might hand
 * the Telegram channel, and what must become of each: `refused` — counted in `errors_total` and
 * `messages_errors_total`, and nothing done with it (no model call, no "typing…", no send);
 * `ignored` — a well-formed update Hearth does not answer (a photo, a bot, an edit), not counted.
 * The schema of telegram-adapter.ts was written against this table.
 */

/** A sender and a private chat that are well formed, to vary one field at a time. */
const USER = { id: 4_001, is_bot: false, first_name: 'Tess' };
const PRIVATE = { id: 4_001, type: 'private', first_name: 'Tess' };
const GOOD = { message_id: 11, date: 1_700_000_000, chat: PRIVATE, from: USER, text: 'hello' };

/** A 2^60: valid JSON, but past the integers a JavaScript number holds exactly. */
const HUGE = 1_152_921_504_606_846_976;

export interface MalformedUpdate {
  name: string;
  /** The update without its `update_id` (the fake Bot API numbers it), or with a bad one. */
  update: Record<string, unknown>;
  outcome: 'refused' | 'ignored';
}

const withMessage = (name: string, message: unknown): MalformedUpdate => ({
  name,
  update: { message },
  outcome: 'refused',
});
const changed = (name: string, fields: Record<string, unknown>): MalformedUpdate =>
  withMessage(name, { ...GOOD, ...fields });
const without = (name: string, field: keyof typeof GOOD): MalformedUpdate =>
  withMessage(name, Object.fromEntries(Object.entries(GOOD).filter(([key]) => key !== field)));

/** Updates whose `update_id` is fine and whose `message` is not. */
export const MALFORMED_MESSAGES: MalformedUpdate[] = [
  withMessage('message is a string', 'junk'),
  withMessage('message is an array', [GOOD]),
  withMessage('message is null', null),
  withMessage('message is a number', 42),
  without('message has no chat', 'chat'),
  changed('chat has no id', { chat: { type: 'private', first_name: 'Tess' } }),
  changed('chat.id is a string', { chat: { ...PRIVATE, id: '4001' } }),
  changed('chat.id is a fraction', { chat: { ...PRIVATE, id: 4001.5 } }),
  changed('chat.id is past 2^53', { chat: { ...PRIVATE, id: HUGE } }),
  changed('chat.id is null', { chat: { ...PRIVATE, id: null } }),
  changed('chat is a string', { chat: 'nowhere' }),
  changed('chat has no type', { chat: { id: 4_001 } }),
  without('message has no from (in a private chat)', 'from'),
  changed('from is a string', { from: 'tess' }),
  changed('from has no id', { from: { is_bot: false, first_name: 'Tess' } }),
  changed('from.id is a string', { from: { ...USER, id: '4001' } }),
  changed('from.id is past 2^53', { from: { ...USER, id: HUGE } }),
  changed('from.is_bot is missing', { from: { id: 4_001, first_name: 'Tess' } }),
  changed('text is a number', { text: 5 }),
  changed('text is an object', { text: { not: 'text' } }),
  changed('text is null', { text: null }),
  changed('text is an array', { text: ['a', 'b'] }),
  changed('text is over 16384 characters', { text: 'x'.repeat(16_385) }),
  without('message has no message_id', 'message_id'),
  changed('message_id is a string', { message_id: '11' }),
  changed('message_id is negative', { message_id: -11 }),
  changed('entities is a string', { entities: 'bold' }),
  changed('an entity has a negative offset', {
    entities: [{ type: 'mention', offset: -1, length: 4 }],
  }),
  changed('forward_origin of a user names no user', {
    forward_origin: { type: 'user', date: 0 },
  }),
  changed('forward_origin is a string', { forward_origin: 'mallory' }),
  changed('reply_to_message is a string', { reply_to_message: 'earlier' }),
];

/** Well-formed updates that are not a text message from a person: taken, not answered, not counted. */
export const IGNORED_UPDATES: MalformedUpdate[] = [
  {
    name: 'a photo without a caption (no text)',
    update: {
      message: {
        message_id: 12,
        date: 1_700_000_000,
        chat: PRIVATE,
        from: USER,
        photo: [{ file_id: 'p', file_unique_id: 'u', width: 1, height: 1 }],
      },
    },
    outcome: 'ignored',
  },
  {
    name: 'a message from a bot',
    update: { message: { ...GOOD, from: { id: 5_002, is_bot: true, first_name: 'Robo' } } },
    outcome: 'ignored',
  },
  {
    name: 'an edited message (a kind not asked for)',
    update: { edited_message: { ...GOOD, edit_date: 1_700_000_100 } },
    outcome: 'ignored',
  },
  { name: 'an update with nothing in it', update: {}, outcome: 'ignored' },
];

/** Updates whose `update_id` itself is unusable: nothing in them can be confirmed or answered. */
export const MALFORMED_UPDATE_IDS: MalformedUpdate[] = [
  { name: 'update_id is negative', update: { update_id: -5, message: GOOD }, outcome: 'refused' },
  {
    name: 'update_id is a fraction',
    update: { update_id: 1.5, message: GOOD },
    outcome: 'refused',
  },
  {
    name: 'update_id is a string',
    update: { update_id: '7', message: GOOD },
    outcome: 'refused',
  },
  {
    name: 'update_id is past 2^53',
    update: { update_id: HUGE, message: GOOD },
    outcome: 'refused',
  },
  {
    name: 'update_id is missing',
    update: { update_id: undefined, message: GOOD },
    outcome: 'refused',
  },
];
