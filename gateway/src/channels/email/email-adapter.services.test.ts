import { afterAll, expect } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { runChannelConformance } from '../conformance.ts';
import {
  MAIL_DOMAIN,
  mailServersMissing,
  startMailServers,
  type MailServers,
} from '../testing/mail-servers.ts';
import { plainEmailChannel } from '../testing/email-config.ts';
import { composeMail, createTestDkim, type DkimSigner } from '../testing/test-dkim.ts';
import { createEmailAdapter } from './email-adapter.ts';

const missing = mailServersMissing();
const USERS = ['bot', '4242', '77', '99', '5'];
let shared: Promise<MailServers> | undefined;
/** One Postfix and one Dovecot for the whole suite (each check starts from what they hold). */
const servers = () => (shared ??= startMailServers(USERS));
/** The mail domain's DKIM key, as its outgoing server signs: every user's mail is signed. */
const dkim = createTestDkim();
let domainKey: DkimSigner | undefined;
const signer = () => (domainKey ??= dkim.signer(MAIL_DOMAIN));

afterAll(async () => {
  if (shared) await (await shared).close();
});

runChannelConformance(
  'email (imapflow and nodemailer against real Dovecot and Postfix)',
  async () => {
    const mail = await servers();
    const config = plainEmailChannel(mail, 'bot', { max_message_bytes: 65_536 });
    const adapter = createEmailAdapter(
      config,
      { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() },
      {
        resolveTxt: dkim.resolveTxt,
        reconnectBaseMs: 200,
        idleAfterMs: 200,
        sweepEveryMs: 5_000,
      },
    );
    const baseline = (await mail.mailbox('4242')).length;
    let sent: { chatId: string; text: string }[] = [];
    let refreshing = false;
    const bot = mail.address('bot');
    return {
      adapter,
      inbound: async ({ senderId, text }) =>
        mail.send(
          await signer().compose({
            from: mail.address(senderId),
            to: bot,
            subject: 'conformance',
            text,
          }),
        ),
      malformed: async () => {
        const envelope = { from: mail.address('77'), to: bot };
        // Signed by the domain, so each is refused for what it is, not for want of a signature.
        const signed = async (raw: string) => ({
          envelope,
          raw: await signer().sign(Buffer.from(raw)),
        });
        // No From header at all.
        await mail.send({ envelope, raw: `To: ${bot}\r\nSubject: who?\r\n\r\nanonymous\r\n` });
        // Our own address as the sender (a loop).
        await mail.send(
          await signer().compose({ from: bot, to: bot, subject: 'me', text: 'talking to myself' }),
        );
        // An auto-reply.
        await mail.send(
          await signer().compose({
            from: mail.address('77'),
            to: bot,
            subject: 'Out of office',
            text: 'I am away',
            headers: { 'Auto-Submitted': 'auto-replied' },
          }),
        );
        // Far over max_message_bytes.
        await mail.send({ from: mail.address('77'), to: bot, text: 'y'.repeat(200_000) });
        // A multipart without its boundary, and bytes that are no mail at all.
        await mail.send(
          await signed(
            `From: ${mail.address('77')}\r\nContent-Type: multipart/mixed\r\n\r\n--\r\n\r\n`,
          ),
        );
        await mail.send({ envelope, raw: Buffer.from([0, 255, 254, 10, 13, 0, 1, 2]) });
        // A forged From: the domain's address, no signature.
        await mail.send(
          await composeMail({ from: mail.address('77'), to: bot, text: 'forged, unsigned' }),
        );
      },
      sent: () => {
        if (!refreshing) {
          refreshing = true;
          void mail
            .mailbox('4242')
            .then((mails) => {
              sent = mails.slice(baseline).map(({ parsed }) => ({
                chatId:
                  parsed.to && !Array.isArray(parsed.to) ? (parsed.to.value[0]?.address ?? '') : '',
                text: (parsed.text ?? '').replace(/\n$/, ''),
              }));
            })
            .finally(() => {
              refreshing = false;
            });
        }
        return sent;
      },
      drop: () => mail.stopDovecot(),
      restore: () => mail.startDovecot(),
      close: () => Promise.resolve(),
      identity: {
        received: (senderId) => ({
          senderId: mail.address(senderId),
          chatId: expect.stringMatching(new RegExp(`^${senderId}@example\\.test <[^ ]+>$`)),
        }),
        chatFor: (senderId) => mail.address(senderId),
      },
    };
  },
  {
    timeoutMs: 30_000,
    unavailable: missing,
    skip: [{ check: 'typing', reason: 'email has no typing indicator' }],
  },
);
