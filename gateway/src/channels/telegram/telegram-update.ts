/**
 * What the Telegram channel reads of a Bot API update, checked at the adapter's edge before
 * anything is done with it (testing/malformed-telegram.ts lists the cases this was written
 * against). Only the fields Hearth reads are checked; others may be anything. Ids are integers a
 * JavaScript number holds exactly.
 */
import { z } from 'zod';
import type { InboundMessage } from '../ports.ts';

/** Longest inbound text taken (Telegram's own limit is 4096); longer is refused and counted. */
export const TELEGRAM_INBOUND_LIMIT = 16_384;

/** How much of a refusal's reason is kept (it goes to the log and the channel's errors). */
const REASON_MAX = 300;

/** zod 4's `int()` admits only safe integers: 2^60 or 1.5 are refused, not rounded. */
const int = z.number().int();

const user = z.looseObject({
  id: int.positive(),
  is_bot: z.boolean(),
  first_name: z.string().max(1_024),
  username: z.string().max(256).optional(),
});

const chat = z.looseObject({
  id: int,
  type: z.string().min(1).max(64),
  title: z.string().max(1_024).optional(),
});

const entity = z.looseObject({ type: z.string(), offset: int.min(0), length: int.min(0) });

const KNOWN_ORIGINS = ['user', 'hidden_user', 'chat', 'channel'];

/** Bot API `MessageOrigin` (who a forwarded message first came from), read as that name. */
const forwardOrigin = z.union([
  z
    .looseObject({ type: z.literal('user'), sender_user: user })
    .transform(({ sender_user: sender }) =>
      sender.username ? `@${sender.username}` : sender.first_name,
    ),
  z
    .looseObject({ type: z.literal('hidden_user'), sender_user_name: z.string().max(1_024) })
    .transform((origin) => origin.sender_user_name),
  z
    .looseObject({ type: z.literal('chat'), sender_chat: chat })
    .transform((origin) => origin.sender_chat.title ?? 'a chat'),
  z
    .looseObject({ type: z.literal('channel'), chat })
    .transform((origin) => origin.chat.title ?? 'a channel'),
  // A kind added to the Bot API later.
  z
    .looseObject({ type: z.string().refine((type) => !KNOWN_ORIGINS.includes(type)) })
    .transform(() => 'someone else'),
]);

export const telegramMessage = z
  .looseObject({
    message_id: int.positive(),
    chat,
    /** Absent only for posts in channels. */
    from: user.optional(),
    /** Absent for a photo, a sticker…: not a text message (ignored). */
    text: z.string().max(TELEGRAM_INBOUND_LIMIT).optional(),
    entities: z.array(entity).max(TELEGRAM_INBOUND_LIMIT).optional(),
    reply_to_message: z.looseObject({ from: user.optional() }).optional(),
    /** Who a forwarded message first came from, by name. */
    forward_origin: forwardOrigin.optional(),
  })
  .refine((message) => message.from !== undefined || message.chat.type === 'channel', {
    message: 'a message in a chat has a sender',
    path: ['from'],
  });

export type TelegramMessage = z.output<typeof telegramMessage>;

/** An update's id: what is confirmed to the Bot API (`offset`) and claimed against repeats. */
const updateIdOnly = z.looseObject({ update_id: int.min(0) });

const telegramUpdate = z.looseObject({
  update_id: int.min(0),
  message: telegramMessage.optional(),
});

/** What became of one update. */
export type UpdateVerdict =
  /** Not an update with a usable `update_id`: nothing in it can be confirmed or answered. */
  | { kind: 'unusable'; reason: string }
  /** Malformed: refused and counted, nothing done with it. */
  | { kind: 'refused'; updateId: number; reason: string }
  /** Well formed, but nothing Hearth answers (another kind of update, a photo, a bot). */
  | { kind: 'ignored'; updateId: number }
  | { kind: 'message'; updateId: number; message: InboundMessage };

const describeIssues = (error: z.ZodError): string => {
  const text = error.issues
    .map((issue) => `${issue.path.join('.') || '(update)'}: ${issue.message}`)
    .join('; ');
  return text.length > REASON_MAX ? `${text.slice(0, REASON_MAX)}…` : text;
};

/** Checks one update as it came from the Bot API (any JSON value) and reads its text message. */
export function readUpdate(raw: unknown, botUsername: string): UpdateVerdict {
  const head = updateIdOnly.safeParse(raw);
  if (!head.success)
    return { kind: 'unusable', reason: `not an update: ${describeIssues(head.error)}` };
  const updateId = head.data.update_id;
  const parsed = telegramUpdate.safeParse(raw);
  if (!parsed.success)
    return {
      kind: 'refused',
      updateId,
      reason: `malformed update ${updateId}: ${describeIssues(parsed.error)}`,
    };
  const inbound = parsed.data.message && toInbound(parsed.data.message, botUsername);
  return inbound ? { kind: 'message', updateId, message: inbound } : { kind: 'ignored', updateId };
}

/** The inbound message of a checked message, or undefined when it is not text from a person. */
function toInbound(message: TelegramMessage, botUsername: string): InboundMessage | undefined {
  const { from, text } = message;
  if (text === undefined || !from || from.is_bot) return undefined;
  const direct = message.chat.type === 'private';
  const handle = `@${botUsername}`.toLowerCase();
  const mentioned =
    (message.entities ?? []).some(
      (entity) =>
        entity.type === 'mention' &&
        text.slice(entity.offset, entity.offset + entity.length).toLowerCase() === handle,
    ) || message.reply_to_message?.from?.username?.toLowerCase() === botUsername.toLowerCase();
  const forwardedFrom = message.forward_origin;
  return {
    id: `${message.chat.id}:${message.message_id}`,
    chatId: String(message.chat.id),
    senderId: String(from.id),
    senderName: from.username ?? from.first_name,
    text,
    direct,
    mentioned,
    ...(forwardedFrom === undefined ? {} : { forwardedFrom }),
  };
}
