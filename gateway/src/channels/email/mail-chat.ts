/**
 * An email chat is one thread with one correspondent: the chat id is the correspondent's
 * address and the thread's root Message-ID, `alice@example.org <root@id>`. Its session is
 * derived from it, so every reply in the thread stays one conversation. A bare address (no
 * thread yet) is a chat too: sending to it starts a new thread.
 */

/** A plain `local@domain` address (no display name, comments, quoting or spaces). */
const ADDRESS = /^[^\s<>@",;:()[\]\\]{1,64}@[a-z0-9.-]{1,253}$/i;
/** A Message-ID as written in headers: `<left@right>`, no spaces or nested brackets. */
const MESSAGE_ID = /^<[^\s<>]{1,994}>$/;

export interface MailChat {
  /** The correspondent, lower-cased. */
  address: string;
  /** The thread's root Message-ID, angle brackets included; absent for a new thread. */
  rootId?: string;
}

export function isMailAddress(value: string): boolean {
  return ADDRESS.test(value);
}

export function isMessageId(value: string): boolean {
  return MESSAGE_ID.test(value);
}

/** `<id>` with the brackets mailparser and headers sometimes leave off added back. */
export function bracketId(value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith('<') ? trimmed : `<${trimmed}>`;
}

export function chatIdOf(chat: MailChat): string {
  return chat.rootId ? `${chat.address} ${chat.rootId}` : chat.address;
}

/** The chat a chat id names, or undefined when it is not one (a reply cannot go there). */
export function parseChatId(chatId: string): MailChat | undefined {
  const space = chatId.indexOf(' ');
  const address = (space < 0 ? chatId : chatId.slice(0, space)).toLowerCase();
  const rootId = space < 0 ? undefined : chatId.slice(space + 1);
  if (!isMailAddress(address)) return undefined;
  if (rootId !== undefined && !isMessageId(rootId)) return undefined;
  return rootId === undefined ? { address } : { address, rootId };
}

/** `Re: <subject>`, without stacking `Re: Re: …`. */
export function replySubject(subject: string | undefined): string {
  const bare = (subject ?? '').replace(/^(\s*(re|aw|sv|fwd?)\s*:\s*)+/i, '').trim();
  return bare === '' ? 'Re: your message' : `Re: ${bare}`;
}

/** Thread roots longer than this are not carried in our Message-IDs (the reply then starts afresh). */
const MAX_CARRIED_ROOT = 300;

/**
 * The Message-ID of a mail we send in the thread rooted at `rootId`: it carries the root
 * (base64url), so a reply to it finds its thread from `In-Reply-To` alone, even after a restart.
 */
export function ownMessageId(rootId: string | undefined, domain: string, unique: string): string {
  const carried =
    rootId && rootId.length <= MAX_CARRIED_ROOT
      ? `.${Buffer.from(rootId).toString('base64url')}`
      : '';
  return `<hearth.${unique}${carried}@${domain}>`;
}

/** The thread root one of our Message-IDs carries, if it is one of ours and carries one. */
export function rootOfOwnId(messageId: string): string | undefined {
  const match = /^<hearth\.[0-9a-f-]{36}\.([A-Za-z0-9_-]{4,400})@[^\s<>@]+>$/.exec(messageId);
  if (!match?.[1]) return undefined;
  const root = Buffer.from(match[1], 'base64url').toString('utf8');
  return isMessageId(root) ? root : undefined;
}
