/**
 * What one message from a network may carry, whatever its adapter let through: every network's
 * own limits are far below these, so a message over one was not written by a person (a forged
 * or broken far end). It is refused before anything stores it, and counted like any other
 * refused input (`errors_total`, `messages_errors_total`). Display names are cut, not refused.
 */
import type { InboundMessage } from './ports.ts';

export const INBOUND_CAPS = {
  /** Characters of text (the longest any network sends is Slack's 40,000). */
  textChars: 65_536,
  /** Characters of a message, chat or sender id. */
  idChars: 512,
  /** Characters of a sender's display name or a forward's origin (longer ones are cut). */
  nameChars: 256,
} as const;

/** Why `message` is refused, or undefined when it is within the caps. */
export function inboundProblem(message: InboundMessage): string | undefined {
  if (message.text.length > INBOUND_CAPS.textChars)
    return `message of ${message.text.length} characters refused (at most ${INBOUND_CAPS.textChars})`;
  const ids = { id: message.id ?? '', chat: message.chatId, sender: message.senderId };
  for (const [field, value] of Object.entries(ids))
    if (value.length > INBOUND_CAPS.idChars)
      return `message with a ${field} id of ${value.length} characters refused (at most ${INBOUND_CAPS.idChars})`;
  return undefined;
}

/** The message with its display names cut to `nameChars`. */
export function withinNameCap(message: InboundMessage): InboundMessage {
  const cut = (name: string | undefined) =>
    name !== undefined && name.length > INBOUND_CAPS.nameChars
      ? `${name.slice(0, INBOUND_CAPS.nameChars - 1)}…`
      : name;
  const senderName = cut(message.senderName);
  const forwardedFrom = cut(message.forwardedFrom);
  return {
    ...message,
    ...(senderName === undefined ? {} : { senderName }),
    ...(forwardedFrom === undefined ? {} : { forwardedFrom }),
  };
}
