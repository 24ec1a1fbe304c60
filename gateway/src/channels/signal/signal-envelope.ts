import { z } from 'zod';
import type { InboundMessage } from '../ports.ts';

/** Longest inbound text handed to the model; longer messages are refused and counted. */
export const SIGNAL_INBOUND_LIMIT = 16_384;

/** Where a reply to a group goes: this prefix and the group's base64 id. */
export const GROUP_CHAT_PREFIX = 'group:';

/** Signal replaces each mention in the text with this character and lists it in `mentions`. */
const MENTION_PLACEHOLDER = '\uFFFC';

const mention = z.object({
  name: z.string().nullish(),
  number: z.string().nullish(),
  uuid: z.string().nullish(),
  start: z.number().int().min(0),
  length: z.number().int().min(0),
});

/** The parts of a `receive` notification's params Hearth reads (anything else is ignored). */
export const receiveParams = z.object({
  account: z.string().optional(),
  envelope: z.looseObject({
    source: z.string().nullish(),
    sourceNumber: z.string().nullish(),
    sourceUuid: z.string().nullish(),
    sourceName: z.string().nullish(),
    timestamp: z.number().int(),
    serverReceivedTimestamp: z.number().int().optional(),
    dataMessage: z
      .object({
        timestamp: z.number().int().optional(),
        message: z.string().nullish(),
        mentions: z.array(mention).max(1_000).optional(),
        groupInfo: z.object({ groupId: z.string().min(1).max(256) }).optional(),
        quote: z
          .object({ author: z.string().nullish(), authorNumber: z.string().nullish() })
          .optional(),
      })
      .optional(),
  }),
});

/** Envelope kinds that carry no message for the bot (receipts, typing, other devices' sync…). */
const NON_MESSAGE_KINDS = [
  'receiptMessage',
  'typingMessage',
  'syncMessage',
  'callMessage',
  'storyMessage',
  'editMessage',
];

export type Classified =
  /** `at`: when the Signal server received it (epoch ms). */
  | { kind: 'message'; message: InboundMessage; at: number }
  | { kind: 'ignored' }
  | { kind: 'refused'; reason: string };

/**
 * What one `receive` event means for the bot (`data` is the SSE event's JSON): a text message,
 * something to ignore quietly (receipts, typing, own messages, a message without text), or
 * something malformed to refuse and count.
 */
export function classifyReceive(data: string, account: string): Classified {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { kind: 'refused', reason: 'receive event is not JSON' };
  }
  const parsed = receiveParams.safeParse(json);
  if (!parsed.success)
    return {
      kind: 'refused',
      reason: `malformed receive event: ${parsed.error.issues[0]?.message}`,
    };
  const { envelope } = parsed.data;
  const sender = envelope.sourceNumber ?? envelope.sourceUuid ?? envelope.source;
  const data_ = envelope.dataMessage;
  if (!data_) {
    if (NON_MESSAGE_KINDS.some((kind) => kind in envelope)) return { kind: 'ignored' };
    return { kind: 'refused', reason: 'receive event of an unknown kind' };
  }
  if (!sender) return { kind: 'refused', reason: 'data message without a sender' };
  if (sender === account || envelope.source === account) return { kind: 'ignored' };
  const raw = data_.message;
  if (raw === undefined || raw === null || raw === '') return { kind: 'ignored' };
  if (raw.length > SIGNAL_INBOUND_LIMIT)
    return { kind: 'refused', reason: `message of ${raw.length} characters is too long` };
  const mentions = data_.mentions ?? [];
  const group = data_.groupInfo?.groupId;
  const mentioned =
    mentions.some((m) => m.number === account) ||
    data_.quote?.authorNumber === account ||
    data_.quote?.author === account;
  return {
    kind: 'message',
    at: envelope.serverReceivedTimestamp ?? envelope.timestamp,
    message: {
      id: `${sender}:${data_.timestamp ?? envelope.timestamp}`,
      chatId: group ? `${GROUP_CHAT_PREFIX}${group}` : sender,
      senderId: sender,
      ...(envelope.sourceName ? { senderName: envelope.sourceName } : {}),
      text: withMentionNames(raw, mentions),
      direct: group === undefined,
      mentioned,
    },
  };
}

/** The text with each mention placeholder replaced by `@name` (or the number). */
function withMentionNames(text: string, mentions: z.infer<typeof mention>[]): string {
  let out = '';
  let at = 0;
  for (const m of [...mentions].sort((a, b) => a.start - b.start)) {
    if (m.start < at || text.slice(m.start, m.start + m.length) !== MENTION_PLACEHOLDER) continue;
    out += `${text.slice(at, m.start)}@${m.name ?? m.number ?? m.uuid ?? 'someone'}`;
    at = m.start + m.length;
  }
  return out + text.slice(at);
}
