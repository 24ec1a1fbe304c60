import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { recordingLink } from '../conformance.ts';
import type { ChannelAdapter } from '../ports.ts';
import {
  MAIL_DOMAIN,
  mailServersMissing,
  startMailServers,
  type MailServers,
} from '../testing/mail-servers.ts';
import { plainEmailChannel } from '../testing/email-config.ts';
import { createTestDkim } from '../testing/test-dkim.ts';
import { createEmailAdapter } from './email-adapter.ts';

const missing = mailServersMissing();

describe.skipIf(missing !== undefined)(
  `Email against a Dovecot without IDLE: new mail is found by polling${missing ? ` (skipped: ${missing})` : ''}`,
  { timeout: 60_000 },
  () => {
    let mail: MailServers;
    let adapter: ChannelAdapter;
    const recorder = recordingLink();
    const dkim = createTestDkim();

    beforeAll(async () => {
      mail = await startMailServers(['bot', 'alice'], { withoutIdle: true });
      const config = plainEmailChannel(mail, 'bot');
      // The adapter's own sweep is far off: only imapflow's polling (NOOP every second) can
      // notice the mail.
      adapter = createEmailAdapter(
        config,
        { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() },
        { resolveTxt: dkim.resolveTxt, sweepEveryMs: 600_000, maxIdleMs: 1_000, idleAfterMs: 200 },
      );
      await adapter.connect(recorder.link);
    }, 60_000);
    afterAll(async () => {
      await adapter?.disconnect();
      await mail?.close();
    });

    it('the server really offers no IDLE', async () => {
      const probe = new ImapFlow({
        host: '127.0.0.1',
        port: mail.imapPort,
        secure: false,
        doSTARTTLS: false,
        auth: { user: mail.address('bot'), pass: mail.password('bot') },
        logger: false,
      });
      await probe.connect();
      expect(probe.capabilities.has('IDLE')).toBe(false);
      await probe.logout();
    });

    it('receives a mail sent after connecting', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const signed = await dkim
        .signer(MAIL_DOMAIN)
        .compose({ from: mail.address('alice'), to: mail.address('bot'), text: 'polled in' });
      await mail.send(signed);
      await expect
        .poll(() => recorder.received.map((m) => m.text), { timeout: 30_000, interval: 100 })
        .toEqual(['polled in']);
    });
  },
);
