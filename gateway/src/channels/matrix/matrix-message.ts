import type { MatrixEvent, Room } from 'matrix-js-sdk';
import type { InboundMessage } from '../ports.ts';

/** Longest inbound text handed to the model; longer messages are refused and counted. */
export const MATRIX_INBOUND_LIMIT = 16_384;

/** Message types with no text for the bot: ignored quietly (attachments come later). */
const QUIET_MSGTYPES = new Set([
  'm.notice', // other bots' output: answering it would start bot loops
  'm.image',
  'm.file',
  'm.audio',
  'm.video',
  'm.location',
  'm.key.verification.request',
]);
const TEXT_MSGTYPES = new Set(['m.text', 'm.emote']);

export type Classified =
  | { kind: 'message'; message: InboundMessage }
  | { kind: 'ignored' }
  | { kind: 'refused'; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The bot is named in the message: its Matrix id, its display name, or `m.mentions`. */
function mentions(content: Record<string, unknown>, body: string, botId: string, botName: string) {
  const declared = isRecord(content['m.mentions']) ? content['m.mentions'].user_ids : undefined;
  if (Array.isArray(declared) && declared.includes(botId)) return true;
  if (body.includes(botId)) return true;
  if (
    typeof content.formatted_body === 'string' &&
    content.formatted_body.includes(`matrix.to/#/${botId}`)
  )
    return true;
  return botName !== '' && new RegExp(`(^|\\W)${escapeRegExp(botName)}(\\W|$)`, 'iu').test(body);
}

/**
 * What one timeline event means for the bot: a text message (from someone else), something to
 * ignore quietly (state, own messages, notices, attachments), or something malformed to refuse
 * and count.
 */
export function classifyEvent(event: MatrixEvent, room: Room, botId: string): Classified {
  if (event.getType() !== 'm.room.message' || event.isState()) return { kind: 'ignored' };
  const sender = event.getSender();
  if (sender === botId) return { kind: 'ignored' };
  if (!sender) return { kind: 'refused', reason: 'message without a sender' };
  const content: unknown = event.getContent();
  if (!isRecord(content) || Object.keys(content).length === 0) return { kind: 'ignored' }; // redacted
  const { msgtype, body } = content;
  if (typeof msgtype !== 'string') return { kind: 'refused', reason: 'message without a msgtype' };
  if (QUIET_MSGTYPES.has(msgtype)) return { kind: 'ignored' };
  if (!TEXT_MSGTYPES.has(msgtype))
    return { kind: 'refused', reason: `unknown msgtype '${msgtype.slice(0, 64)}'` };
  if (typeof body !== 'string') return { kind: 'refused', reason: 'message body is not text' };
  if (body.trim() === '') return { kind: 'ignored' };
  if (body.length > MATRIX_INBOUND_LIMIT)
    return { kind: 'refused', reason: `message of ${body.length} characters is too long` };
  const own = room.getMember(botId);
  const botName = own?.rawDisplayName && own.rawDisplayName !== botId ? own.rawDisplayName : '';
  const replyTo = isRecord(content['m.relates_to'])
    ? content['m.relates_to']['m.in_reply_to']
    : undefined;
  const repliedId =
    isRecord(replyTo) && typeof replyTo.event_id === 'string' ? replyTo.event_id : '';
  const direct =
    room.getInvitedAndJoinedMemberCount() === 2 ||
    own?.events.member?.getContent().is_direct === true;
  return {
    kind: 'message',
    message: {
      id: event.getId() ?? `${room.roomId}:${event.getTs()}`,
      chatId: room.roomId,
      senderId: sender,
      senderName: room.getMember(sender)?.name ?? sender,
      text: body,
      direct,
      mentioned:
        mentions(content, body, botId, botName) ||
        (repliedId !== '' && room.findEventById(repliedId)?.getSender() === botId),
    },
  };
}
