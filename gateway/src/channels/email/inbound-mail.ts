import EmailReplyParser from 'email-reply-parser';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { InboundMessage } from '../ports.ts';
import { bracketId, chatIdOf, isMailAddress, isMessageId, replySubject } from './mail-chat.ts';
import type { SenderCheck } from './sender-auth.ts';

/** How a reply to a mail is threaded: what its `In-Reply-To`, `References` and subject say. */
export interface ReplyThread {
  inReplyTo: string;
  /** Root first, the mail replied to last; at most `MAX_REFERENCES` ids. */
  references: string[];
  subject: string;
}

export type MailVerdict =
  | { ok: true; message: InboundMessage; thread?: ReplyThread }
  | {
      ok: false;
      reason: string;
      /** The sender could not be checked for now (DNS): the mail may be read again later. */
      retry?: boolean;
    };

/** Ids kept in a reply's `References`: the root and the latest ones (RFC 5322 allows trimming). */
export const MAX_REFERENCES = 20;

const referencesOf = (mail: ParsedMail): string[] => {
  const raw = mail.references;
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : raw.split(/\s+/);
  return list.map(bracketId).filter(isMessageId);
};

/** A header's value as written (lower-cased), before mailparser made it structured. */
const headerText = (mail: ParsedMail, name: string): string => {
  const line = mail.headerLines.find((h) => h.key === name)?.line ?? '';
  return line
    .slice(line.indexOf(':') + 1)
    .trim()
    .toLowerCase();
};

/** The mail's own words: quoted earlier mails and signatures are cut off. */
function ownText(mail: ParsedMail): string {
  const full = (mail.text ?? '').replace(/\r\n/g, '\n');
  const own = new EmailReplyParser().parseReply(full).trim();
  const text = own === '' ? full.trim() : own;
  return text === '' ? (mail.subject ?? '').trim() : text;
}

/**
 * Reads one mail as received (the raw RFC 5322 source) into the message the channel hands over,
 * or says why it is refused: no usable From, a sender `checkSender` cannot verify (checked
 * first, before anything else of the mail is looked at), our own address (a loop), an automatic
 * mail (a bounce or an auto-reply, answering it could loop forever), or no text at all. The
 * sender is the From address; the chat is the thread with that sender, rooted at the first id of
 * `References` (else `In-Reply-To`, else the mail itself; a reply to a mail of ours joins that
 * mail's thread), so a reply thread stays one session.
 */
export async function readMail(
  source: Buffer,
  ownAddress: string,
  /** The thread root of a mail we sent (its Message-ID), when we remember it. */
  rootOfSent: (messageId: string) => string | undefined = () => undefined,
  /** Proves the From (`verify_sender`); without it the From header is trusted as written. */
  checkSender?: SenderCheck,
): Promise<MailVerdict> {
  let mail: ParsedMail;
  try {
    mail = await simpleParser(source, { skipImageLinks: true, skipTextLinks: true });
  } catch (error) {
    return { ok: false, reason: `unparseable mail: ${String(error)}` };
  }
  const froms = mail.from?.value ?? [];
  const from = froms.length === 1 ? froms[0]?.address?.toLowerCase() : undefined;
  if (!from || !isMailAddress(from))
    return { ok: false, reason: 'mail without one valid From address' };
  if (checkSender) {
    const sender = await checkSender(source, from);
    if (!sender.ok)
      return { ok: false, reason: sender.reason, ...(sender.temporary ? { retry: true } : {}) };
  }
  if (from === ownAddress.toLowerCase()) return { ok: false, reason: 'mail from our own address' };
  const auto = headerText(mail, 'auto-submitted');
  if ((auto !== '' && auto !== 'no') || headerText(mail, 'return-path') === '<>')
    return { ok: false, reason: `automatic mail from ${from} (bounce or auto-reply) ignored` };
  const text = ownText(mail);
  if (text === '') return { ok: false, reason: `mail from ${from} has no text` };

  const messageId = mail.messageId ? bracketId(mail.messageId) : undefined;
  const ownId = messageId && isMessageId(messageId) ? messageId : undefined;
  const references = referencesOf(mail);
  const inReplyTo = mail.inReplyTo ? bracketId(mail.inReplyTo.split(/\s+/)[0] ?? '') : undefined;
  const parent = inReplyTo && isMessageId(inReplyTo) ? inReplyTo : undefined;
  // A reply to one of our mails belongs to that mail's thread, even when the client trimmed
  // `References` (or sent none); otherwise the thread's root is the first reference.
  const known = [parent, ...[...references].reverse()]
    .map((id) => (id ? rootOfSent(id) : undefined))
    .find((root) => root !== undefined);
  const rootId = known ?? references[0] ?? parent ?? ownId;
  const chatId = chatIdOf(rootId ? { address: from, rootId } : { address: from });
  const name = froms[0]?.name?.trim();
  const forwardedFrom = forwardedFromOf(mail, text);
  const message: InboundMessage = {
    ...(ownId ? { id: ownId } : {}),
    chatId,
    senderId: from,
    ...(name ? { senderName: name.slice(0, 200) } : {}),
    text,
    direct: true,
    mentioned: false,
    ...(forwardedFrom === undefined ? {} : { forwardedFrom }),
  };
  if (!ownId) return { ok: true, message };
  const chain = [...references, ownId].filter((id, i, all) => all.indexOf(id) === i);
  const trimmed =
    chain.length <= MAX_REFERENCES
      ? chain
      : [chain[0] ?? ownId, ...chain.slice(-(MAX_REFERENCES - 1))];
  return {
    ok: true,
    message,
    thread: { inReplyTo: ownId, references: trimmed, subject: replySubject(mail.subject) },
  };
}

/** A forward's subject prefix in the usual languages (Fwd:, FW:, WG:, TR:, RV:, ENC:). */
const FORWARD_SUBJECT = /^\s*(?:fwd?|fw|wg|tr|rv|enc)\s*:/i;
/** The separators mail clients put above a forwarded mail's text. */
const FORWARD_MARKERS = [
  /-{2,}\s*Forwarded message\s*-{2,}/i,
  /^\s*Begin forwarded message:/im,
  /-{3,}\s*Original Message\s*-{3,}/i,
  /^\s*-{2,}\s*(?:Weitergeleitete Nachricht|Message transféré|Mensaje reenviado)\s*-{2,}/im,
];

/**
 * Whether the mail relays another mail (a forward), and whose: the forwarded `From:` line when
 * the text has one, else `a forwarded mail`. Its text is then not the sender's own words.
 */
export function forwardedFromOf(mail: ParsedMail, text: string): string | undefined {
  const attached = mail.attachments.some(
    (attachment) => attachment.contentType.toLowerCase() === 'message/rfc822',
  );
  // The whole text: what ownText() cut as quoted is where a forward's separator sits.
  const whole = mail.text ?? text;
  const marker = FORWARD_MARKERS.map((pattern) => pattern.exec(whole)).find(Boolean);
  if (!attached && !marker && !FORWARD_SUBJECT.test(mail.subject ?? '')) return undefined;
  const after = marker ? whole.slice(marker.index) : whole;
  const from = /^\s*(?:From|Von|De):\s*(.+)$/im.exec(after)?.[1]?.trim();
  return from ? from.slice(0, 200) : 'a forwarded mail';
}
