import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema, type ChannelConfig } from '../../config/schema.ts';
import { silentLogger } from '../../observability/logger.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import type { ChannelLink } from '../ports.ts';
import { recordingLink } from '../conformance.ts';
import { gatewayApi } from '../testing/channel-test-kit.ts';
import { createTestDkim, type DkimSigner } from '../testing/test-dkim.ts';
import {
  freePort,
  MAIL_DOMAIN,
  startMailServers,
  tlsMailServersMissing,
  type MailServers,
  type MailTls,
} from '../testing/mail-servers.ts';
import { createEmailAdapter } from './email-adapter.ts';

const missing = tlsMailServersMissing();
const WRONG_PASSWORD = 'not-the-password-7f3a';

type EmailConfig = Extract<ChannelConfig, { type: 'email' }>;

describe.skipIf(missing !== undefined)(
  `Email over IMAPS and SMTP submission (STARTTLS + AUTH), real Dovecot and Postfix${missing ? ` (skipped: ${missing})` : ''}`,
  { timeout: 120_000 },
  () => {
    let bed: ChatTestBed;
    let mail: MailServers;
    let tls: MailTls;
    let seenByOwner = 0;
    const dkim = createTestDkim();
    let signer: DkimSigner;
    const api = gatewayApi(() => bed.gw.url);
    const channel = async (name: string) => (await api.call('GET', `/channels/${name}`)).body;

    /** The agent's mailbox as users configure it: IMAPS + submission, trusting the private CA. */
    const secured = (overrides: Record<string, unknown> = {}): EmailConfig => {
      const config = channelSchema.parse({
        type: 'email',
        imap_host: '127.0.0.1',
        imap_port: tls.imapsPort,
        imap_tls: 'tls',
        smtp_host: '127.0.0.1',
        smtp_port: tls.submissionPort,
        smtp_tls: 'starttls',
        tls_ca_file: tls.caFile,
        username: mail.address('bot'),
        password_secret: mail.password('bot'),
        address: mail.address('bot'),
        allow_from: [mail.address('owner')],
        ...overrides,
      });
      if (config.type !== 'email') throw new Error('unreachable');
      return config;
    };
    const adapterFor = (config: EmailConfig) =>
      createEmailAdapter(
        config,
        { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() },
        { resolveTxt: dkim.resolveTxt },
      );
    /** A link for the adapter-level checks, which hand nothing over. */
    const link = (): ChannelLink => recordingLink().link;

    beforeAll(async () => {
      signer = dkim.signer(MAIL_DOMAIN);
      mail = await startMailServers(['bot', 'owner'], { tls: true });
      if (!mail.tls) throw new Error('the mail servers started without TLS');
      tls = mail.tls;
      bed = await startChatTestBed(undefined, {
        resolveTxt: dkim.resolveTxt,
        config: {
          channels: {
            mail: secured(),
            // The right servers, the wrong password.
            badpass: secured({ password_secret: WRONG_PASSWORD }),
            // The right servers and password, but their certificate's CA is not trusted.
            untrusted: secured({ tls_ca_file: '' }),
          },
        },
      });
    }, 90_000);
    afterAll(async () => {
      await bed?.close();
      await mail?.close();
    });
    afterEach(() => {
      bed.fake.reset();
    });

    it('a full turn: mail in over IMAPS → model → reply sent with STARTTLS + AUTH, threaded', async () => {
      await expect
        .poll(async () => (await channel('mail')).status, { timeout: 30_000 })
        .toBe('connected');
      bed.fake.reply({ text: 'Hello over TLS.' });
      await mail.send(
        await signer.compose({
          from: mail.address('owner'),
          to: mail.address('bot'),
          subject: 'Secure hello',
          text: 'Are we encrypted?',
          messageId: '<tls.1@example.test>',
        }),
      );
      const [reply] = await mail.nextMail('owner', seenByOwner, 40_000);
      seenByOwner += 1;
      expect((reply?.parsed.text ?? '').trim()).toBe('Hello over TLS.');
      expect(reply?.parsed.subject).toBe('Re: Secure hello');
      expect(reply?.parsed.inReplyTo).toBe('<tls.1@example.test>');
      // Postfix records how the reply came in: over TLS, after a SASL login as the bot.
      const received = reply?.parsed.headerLines.find((h) => h.key === 'received')?.line ?? '';
      expect(received).toMatch(/\(using TLS/);
      expect(received).toMatch(/ESMTPSA/);
      expect(JSON.stringify(bed.fake.requests[0]?.body)).toContain('Are we encrypted?');
    });

    it('a wrong password: the channel stays down and says why, without the password', async () => {
      await expect
        .poll(async () => (await channel('badpass')).last_error ?? '', { timeout: 30_000 })
        .toMatch(/auth|login|credential/i);
      const body = await channel('badpass');
      expect(body.status).not.toBe('connected');
      expect(JSON.stringify(body)).not.toContain(WRONG_PASSWORD);
      // The gateway and the other channel carry on.
      expect((await channel('mail')).status).toBe('connected');
    });

    it('a certificate whose CA is not trusted is refused (never a plain connection)', async () => {
      await expect
        .poll(async () => (await channel('untrusted')).last_error ?? '', { timeout: 30_000 })
        .toMatch(/certificate/i);
      expect((await channel('untrusted')).status).not.toBe('connected');
    });

    it('smtp_tls = "starttls" against a server that offers no STARTTLS: the connect fails, nothing sent in plain', async () => {
      // Postfix's plain port offers no STARTTLS (and no AUTH): a required upgrade must fail, and
      // the channel says so when it connects rather than at its first reply.
      const adapter = adapterFor(secured({ smtp_port: mail.smtpPort }));
      const before = (await mail.mailbox('owner')).length;
      await expect(adapter.connect(link())).rejects.toThrow(
        new RegExp(`^SMTP 127\\.0\\.0\\.1:${mail.smtpPort}: .*STARTTLS`, 'i'),
      );
      await expect(adapter.sendText(mail.address('owner'), 'never')).rejects.toThrow(
        /not connected/,
      );
      expect((await mail.mailbox('owner')).length).toBe(before);
    });

    it('an SMTP server that is not there fails the connect, naming SMTP', async () => {
      const closed = await freePort();
      const adapter = adapterFor(secured({ smtp_port: closed }));
      await expect(adapter.connect(link())).rejects.toThrow(
        new RegExp(`^SMTP 127\\.0\\.0\\.1:${closed}: .*ECONNREFUSED`),
      );
    });

    it('the submission port refuses mail without a login, and a plain login before STARTTLS', async () => {
      const ca = await readFile(tls.caFile, 'utf8');
      const anonymous = nodemailer.createTransport({
        host: '127.0.0.1',
        port: tls.submissionPort,
        secure: false,
        requireTLS: true,
        tls: { ca: [ca] },
      });
      const before = (await mail.mailbox('owner')).length;
      await expect(
        anonymous.sendMail({ from: mail.address('bot'), to: mail.address('owner'), text: 'anon' }),
      ).rejects.toThrow(/5\d\d/);
      anonymous.close();
      // Without STARTTLS the server offers no AUTH at all: a password never travels in plain.
      const plainLogin = nodemailer.createTransport({
        host: '127.0.0.1',
        port: tls.submissionPort,
        secure: false,
        ignoreTLS: true,
        auth: { user: mail.address('bot'), pass: mail.password('bot') },
      });
      await expect(
        plainLogin.sendMail({ from: mail.address('bot'), to: mail.address('owner'), text: 'x' }),
      ).rejects.toThrow();
      plainLogin.close();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await mail.mailbox('owner')).length).toBe(before);
    });

    it('imap_tls = "starttls" upgrades on the plain IMAP port; against a server without STARTTLS it is refused', async () => {
      const upgraded = adapterFor(secured({ imap_port: mail.imapPort, imap_tls: 'starttls' }));
      await upgraded.connect(link());
      await upgraded.disconnect();
      // A Dovecot without TLS offers no STARTTLS: the required upgrade fails, no plain login.
      const plain = await startMailServers(['bot']);
      try {
        const refused = adapterFor(secured({ imap_port: plain.imapPort, imap_tls: 'starttls' }));
        await expect(refused.connect(link())).rejects.toThrow(/STARTTLS/);
      } finally {
        await plain.close();
      }
    });

    it('smtp_tls = "tls" (SMTPS) with AUTH delivers; an unreadable or non-PEM tls_ca_file is a clear error', async () => {
      const adapter = adapterFor(secured({ smtp_port: tls.smtpsPort, smtp_tls: 'tls' }));
      await adapter.connect(link());
      try {
        const before = (await mail.mailbox('owner')).length;
        await adapter.sendText(mail.address('owner'), 'Sent over SMTPS.');
        const [got] = await mail.nextMail('owner', before, 40_000);
        seenByOwner = before + 1;
        expect((got?.parsed.text ?? '').trim()).toBe('Sent over SMTPS.');
      } finally {
        await adapter.disconnect();
      }
      const missingCa = adapterFor(secured({ tls_ca_file: '/nonexistent/ca.pem' }));
      await expect(missingCa.connect(link())).rejects.toThrow(
        /tls_ca_file could not be read: ENOENT/,
      );
      // A file that holds no certificate (this test's own source) is refused as such.
      const notPem = adapterFor(secured({ tls_ca_file: fileURLToPath(import.meta.url) }));
      await expect(notPem.connect(link())).rejects.toThrow(/tls_ca_file holds no PEM certificate/);
    });
  },
);
