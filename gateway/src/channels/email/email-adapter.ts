import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';
import { ImapFlow } from 'imapflow';
import nodemailer, { type Transporter } from 'nodemailer';
import type { ChannelConfig } from '../../config/schema.ts';
import { HearthError } from '../../errors.ts';
import type { AdapterIo, ChannelAdapter, ChannelLink, TxtResolver } from '../ports.ts';
import { readMail, type ReplyThread } from './inbound-mail.ts';
import { ownMessageId, parseChatId, rootOfOwnId } from './mail-chat.ts';
import { createDkimCheck } from './sender-auth.ts';

type EmailConfig = Extract<ChannelConfig, { type: 'email' }>;

/**
 * A reply is one mail however long (mail has no practical text limit): the channel service
 * splits only text above this, which keeps a runaway answer from becoming a multi-megabyte mail.
 */
export const EMAIL_TEXT_LIMIT = 100_000;

/** Threads remembered for replies, the oldest forgotten first (a reply then roots at the chat's id). */
const MAX_THREADS = 10_000;

/**
 * How long a mail whose sender could not be checked for want of DNS stays unseen, read again at
 * each sweep, before it is refused like any unverified mail.
 */
export const SENDER_RETRY_MS = 15 * 60_000;

export interface EmailOptions {
  /** DNS TXT lookups: the signers' DKIM keys, for `verify_sender = "dkim"`. */
  resolveTxt: TxtResolver;
  /** How often the mailbox is also searched for unseen mail, besides IDLE's push (ms). */
  sweepEveryMs?: number;
  /** IDLE is renewed this often; on a server without IDLE, how often it is polled (ms). */
  maxIdleMs?: number;
  /** How long the connection stays quiet before IDLE starts (ms). */
  idleAfterMs?: number;
  /** First delay before reconnecting after the IMAP connection drops; doubles up to a minute. */
  reconnectBaseMs?: number;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** nodemailer's and imapflow's security settings for one `tls | starttls | none` choice. */
const smtpSecurity = (mode: EmailConfig['smtp_tls']) =>
  mode === 'tls'
    ? { secure: true }
    : mode === 'starttls'
      ? { secure: false, requireTLS: true }
      : { secure: false, ignoreTLS: true };

const imapSecurity = (mode: EmailConfig['imap_tls']) =>
  mode === 'tls'
    ? { secure: true }
    : mode === 'starttls'
      ? { secure: false, doSTARTTLS: true }
      : { secure: false, doSTARTTLS: false };

/**
 * Why the IMAP login failed, in words an owner can act on: imapflow's own message for a refused
 * login is only "Command failed". The server's answer is included; the password never is.
 */
const imapConnectError = (error: unknown): Error => {
  const failure = error as { authenticationFailed?: boolean; responseText?: string };
  if (failure.authenticationFailed !== true)
    return error instanceof Error ? error : new Error(describe(error));
  const answer = (failure.responseText ?? '').slice(0, 200);
  return new HearthError(
    'unavailable',
    `IMAP login refused (check username and password_secret)${answer ? `: ${answer}` : ''}`,
  );
};

/** The subject of a mail that starts a thread: its first line, shortened. */
const newSubject = (text: string) => {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line === ''
    ? 'A message from your agent'
    : line.length > 70
      ? `${line.slice(0, 69)}…`
      : line;
};

/**
 * Email: IMAP in through imapflow (IDLE pushes new mail; a server without IDLE is polled), SMTP
 * out through nodemailer. Each unseen mail of `mailbox` is read (larger than
 * `max_message_bytes`: refused unread), its sender verified (`verify_sender`, sender-auth.ts),
 * handed over, then flagged `\Seen`; refused mail is flagged too and counted, so nothing is read
 * twice, and never answered (its From may be forged). A mail whose sender check failed on DNS
 * stays unseen for another try, up to `SENDER_RETRY_MS`. Replies carry `In-Reply-To`, `References`
 * and a `Re:` subject, so they land in the sender's thread. The IMAP connection is re-opened
 * with backoff when it drops (health reports it); one connection per mailbox, so `exclusive`.
 */
export function createEmailAdapter(
  config: EmailConfig,
  io: AdapterIo,
  options: EmailOptions,
): ChannelAdapter {
  let link: ChannelLink | undefined;
  let client: ImapFlow | undefined;
  let smtp: Transporter | undefined;
  let stopping = true;
  let sweeping: Promise<void> | undefined;
  let sweepAgain = false;
  let sweepTimer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let attempt = 0;
  /** How to thread a reply in each chat: the latest mail that came in there. */
  const threads = new Map<string, ReplyThread>();
  /** Mails whose sender check waits for DNS: uid → when it first failed. */
  const deferred = new Map<number, number>();
  const checkSender =
    config.verify_sender === 'dkim'
      ? createDkimCheck({ resolveTxt: options.resolveTxt, now: io.now })
      : undefined;
  const domain = config.address.slice(config.address.lastIndexOf('@') + 1);
  const remember = <K, V>(map: Map<K, V>, key: K, value: V) => {
    map.delete(key);
    map.set(key, value);
    const oldest = map.keys().next();
    if (map.size > MAX_THREADS && !oldest.done) map.delete(oldest.value);
  };
  const log = io.logger.child({ channel: 'email' });
  /** The TLS options both connections share: the private CA, when configured, besides the system's. */
  let tls: { ca?: string[]; rejectUnauthorized: true } = { rejectUnauthorized: true };
  async function loadTls(): Promise<void> {
    if (config.tls_ca_file === '') {
      tls = { rejectUnauthorized: true };
      return;
    }
    let pem: string;
    try {
      pem = await readFile(config.tls_ca_file, 'utf8');
    } catch (error) {
      throw new HearthError(
        'validation',
        `tls_ca_file could not be read: ${(error as NodeJS.ErrnoException).code ?? describe(error)}`,
      );
    }
    if (!pem.includes('-----BEGIN CERTIFICATE-----'))
      throw new HearthError('validation', 'tls_ca_file holds no PEM certificate');
    // A `ca` replaces Node's trust store: the system's roots stay trusted next to the private CA.
    tls = { ca: [...rootCertificates, pem], rejectUnauthorized: true };
  }

  async function markSeen(imap: ImapFlow, uid: number): Promise<void> {
    await imap.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
  }

  /** Whether a mail whose sender could not be checked yet is left for another try. */
  function tryAgainLater(uid: number): boolean {
    const first = deferred.get(uid) ?? io.now();
    if (io.now() - first >= SENDER_RETRY_MS) {
      deferred.delete(uid);
      return false;
    }
    remember(deferred, uid, first);
    return true;
  }

  /** Reads one unseen mail and hands it over (or refuses it); flags it seen either way. */
  async function take(imap: ImapFlow, uid: number): Promise<void> {
    const meta = await imap.fetchOne(String(uid), { size: true }, { uid: true });
    if (!meta) return;
    const size = meta.size ?? 0;
    if (size > config.max_message_bytes) {
      link?.rejected(
        `mail of ${size} bytes is over max_message_bytes (${config.max_message_bytes})`,
      );
      await markSeen(imap, uid);
      return;
    }
    const full = await imap.fetchOne(String(uid), { source: true }, { uid: true });
    if (!full || !full.source) return;
    const verdict = await readMail(full.source, config.address, rootOfOwnId, checkSender);
    if (!verdict.ok && verdict.retry && tryAgainLater(uid)) {
      log.warn({ uid, reason: verdict.reason }, 'sender not verifiable for now; mail left unseen');
      return;
    }
    deferred.delete(uid);
    if (!verdict.ok) {
      link?.rejected(verdict.reason);
      await markSeen(imap, uid);
      return;
    }
    if (verdict.thread) remember(threads, verdict.message.chatId, verdict.thread);
    await link?.receive(verdict.message);
    await markSeen(imap, uid);
  }

  async function sweepOnce(imap: ImapFlow): Promise<void> {
    const uids = await imap.search({ seen: false }, { uid: true });
    for (const uid of uids || []) {
      if (stopping || imap !== client) return;
      await take(imap, uid);
    }
  }

  /** Takes every unseen mail, one sweep at a time (a request meanwhile runs one more after it). */
  function sweep(): Promise<void> {
    const imap = client;
    if (!imap || stopping) return Promise.resolve();
    if (sweeping) {
      sweepAgain = true;
      return sweeping;
    }
    const run = async () => {
      do {
        sweepAgain = false;
        await sweepOnce(imap);
      } while (sweepAgain && !stopping && imap === client);
    };
    sweeping = run()
      .catch((error: unknown) => log.warn({ err: describe(error) }, 'mailbox sweep failed'))
      .finally(() => {
        sweeping = undefined;
      });
    return sweeping;
  }

  async function openImap(): Promise<ImapFlow> {
    const imap = new ImapFlow({
      host: config.imap_host,
      port: config.imap_port,
      ...imapSecurity(config.imap_tls),
      tls,
      auth: { user: config.username, pass: config.password_secret },
      logger: false,
      maxIdleTime: options.maxIdleMs ?? 240_000,
      autoIdleDelay: options.idleAfterMs ?? 2_000,
      missingIdleCommand: 'NOOP',
      connectionTimeout: 30_000,
      greetingTimeout: 16_000,
      // A server cannot make us buffer much more than the largest mail we would read.
      maxLiteralSize: config.max_message_bytes * 4 + 65_536,
      maxResponseSize: config.max_message_bytes * 8 + 131_072,
    });
    imap.on('error', (error: unknown) => log.warn({ err: describe(error) }, 'imap error'));
    try {
      await imap.connect();
    } catch (error) {
      throw imapConnectError(error);
    }
    try {
      await imap.mailboxOpen(config.mailbox);
    } catch (error) {
      await imap.logout().catch(() => imap.close());
      throw error;
    }
    imap.on('exists', () => void sweep());
    imap.on('close', () => {
      if (stopping || imap !== client) return;
      client = undefined;
      link?.health(false, 'IMAP connection closed');
      log.warn('imap connection closed; reconnecting');
      scheduleReconnect();
    });
    return imap;
  }

  function scheduleReconnect(): void {
    const delay = Math.min((options.reconnectBaseMs ?? 1_000) * 2 ** attempt, 60_000);
    attempt += 1;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (stopping) return;
      openImap().then(
        (imap) => {
          if (stopping) {
            void imap.logout().catch(() => imap.close());
            return;
          }
          client = imap;
          attempt = 0;
          link?.health(true);
          void sweep();
        },
        (error: unknown) => {
          log.warn({ err: describe(error), attempt }, 'imap reconnect failed');
          scheduleReconnect();
        },
      );
    }, delay);
    retryTimer.unref();
  }

  return {
    type: 'email',
    maxTextLength: EMAIL_TEXT_LIMIT,
    // One IMAP reader per mailbox: two would race for the same unseen mail.
    exclusive: true,
    async connect(next) {
      link = next;
      stopping = false;
      attempt = 0;
      await loadTls();
      smtp = nodemailer.createTransport({
        host: config.smtp_host,
        port: config.smtp_port,
        ...smtpSecurity(config.smtp_tls),
        tls,
        auth: { user: config.username, pass: config.password_secret },
        connectionTimeout: 30_000,
        greetingTimeout: 16_000,
      });
      // The SMTP side is checked now (connect, STARTTLS, login), not at the first reply: a
      // channel that could read mail but never answer it is down, and says why.
      try {
        await smtp.verify();
      } catch (error) {
        smtp.close();
        smtp = undefined;
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`SMTP ${config.smtp_host}:${config.smtp_port}: ${reason}`, {
          cause: error,
        });
      }
      client = await openImap();
      const every = options.sweepEveryMs ?? 60_000;
      sweepTimer = setInterval(() => void sweep(), every);
      sweepTimer.unref();
      io.logger.info(
        { mailbox: config.mailbox, idle: client.capabilities.has('IDLE') },
        'email connected',
      );
      if (!checkSender)
        log.warn(
          { verify_sender: config.verify_sender },
          'email senders are not verified (verify_sender = "off"): anyone can write as the owner by forging From',
        );
      void sweep();
    },
    async disconnect() {
      stopping = true;
      clearInterval(sweepTimer);
      clearTimeout(retryTimer);
      sweepTimer = undefined;
      retryTimer = undefined;
      await sweeping;
      const imap = client;
      client = undefined;
      if (imap) await imap.logout().catch(() => imap.close());
      smtp?.close();
      smtp = undefined;
    },
    async sendText(chatId, text) {
      const chat = parseChatId(chatId);
      if (!chat) throw new HearthError('validation', `Not an email chat: ${chatId.slice(0, 200)}`);
      if (!smtp) throw new HearthError('unavailable', 'The email channel is not connected');
      const thread = threads.get(chatId);
      const rootId = chat.rootId;
      const messageId = ownMessageId(rootId, domain, randomUUID());
      await smtp.sendMail({
        messageId,
        from: config.address,
        to: chat.address,
        subject: thread?.subject ?? (rootId ? 'Re: your message' : newSubject(text)),
        text,
        ...(thread
          ? { inReplyTo: thread.inReplyTo, references: thread.references }
          : rootId
            ? { inReplyTo: rootId, references: [rootId] }
            : {}),
        // RFC 3834: an automatic answer, so auto-responders do not answer it back.
        headers: { 'Auto-Submitted': 'auto-replied' },
      });
    },
  };
}
