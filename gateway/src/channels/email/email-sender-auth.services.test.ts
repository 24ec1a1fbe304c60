import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, type Logger } from '../../observability/logger.ts';
import { recordingLink } from '../conformance.ts';
import { plainEmailChannel, type EmailConfig } from '../testing/email-config.ts';
import {
  MAIL_DOMAIN,
  mailServersMissing,
  startMailServers,
  type MailServers,
} from '../testing/mail-servers.ts';
import { composeMail, createTestDkim, type DkimSigner } from '../testing/test-dkim.ts';
import { createEmailAdapter, SENDER_RETRY_MS } from './email-adapter.ts';

const missing = mailServersMissing();

describe.skipIf(missing !== undefined)(
  `Email sender verification through real Postfix and Dovecot: DNS failures wait, "off" warns${missing ? ` (skipped: ${missing})` : ''}`,
  { timeout: 90_000 },
  () => {
    let mail: MailServers;
    let signer: DkimSigner;
    const dkim = createTestDkim();
    /** The adapter's clock: moved on to pass the retry window without waiting it out. */
    let clock = Date.now();

    const configFor = (overrides: Record<string, unknown> = {}): EmailConfig =>
      plainEmailChannel(mail, 'bot', overrides);
    /** Connects an adapter (sweeping every 300 ms) to a recording link; run `test`, then disconnect. */
    const withAdapter = async (
      test: (recorder: ReturnType<typeof recordingLink>) => Promise<void>,
      options: { config?: EmailConfig; logger?: Logger } = {},
    ) => {
      const adapter = createEmailAdapter(
        options.config ?? configFor(),
        { fetch: globalThis.fetch, now: () => clock, logger: options.logger ?? silentLogger() },
        { resolveTxt: dkim.resolveTxt, sweepEveryMs: 300, idleAfterMs: 200, reconnectBaseMs: 200 },
      );
      const recorder = recordingLink();
      await adapter.connect(recorder.link);
      try {
        await test(recorder);
      } finally {
        await adapter.disconnect();
      }
    };
    /** The mails of the agent's mailbox not yet flagged seen. */
    const unseen = () => mail.unseen('bot');
    const toBot = (text: string) => ({
      from: mail.address('owner'),
      to: mail.address('bot'),
      text,
    });

    beforeAll(async () => {
      signer = dkim.signer(MAIL_DOMAIN);
      mail = await startMailServers(['bot', 'owner']);
    }, 60_000);
    afterAll(async () => {
      await mail?.close();
    });

    it('a mail whose key lookup fails is left unseen and read again: handed over once DNS answers', async () => {
      await withAdapter(async (recorder) => {
        const before = dkim.lookups.length;
        dkim.failNext(3, 'ESERVFAIL');
        await mail.send(await signer.compose(toBot('through a DNS hiccup')));
        await expect
          .poll(() => recorder.received.map((m) => m.text), { timeout: 30_000 })
          .toEqual(['through a DNS hiccup']);
        expect(recorder.rejected).toEqual([]);
        // Three failed reads, then the one that passed.
        expect(dkim.lookups.length - before).toBe(4);
        await expect.poll(unseen, { timeout: 10_000 }).toEqual([]);
      });
    });

    it('one whose lookups still fail after SENDER_RETRY_MS is refused, counted and flagged seen', async () => {
      await withAdapter(async (recorder) => {
        const before = dkim.lookups.length;
        dkim.failNext(1_000_000, 'ETIMEOUT');
        try {
          await mail.send(await signer.compose(toBot('DNS never answers')));
          // Read again at each sweep, and neither handed over nor refused meanwhile.
          await expect
            .poll(() => dkim.lookups.length - before, { timeout: 30_000 })
            .toBeGreaterThanOrEqual(3);
          expect(recorder.rejected).toEqual([]);
          expect(await unseen()).toHaveLength(1);
          clock += SENDER_RETRY_MS;
          await expect.poll(() => recorder.rejected, { timeout: 30_000 }).toHaveLength(1);
          expect(recorder.rejected[0]).toMatch(/temperror/);
          expect(recorder.received).toEqual([]);
          await expect.poll(unseen, { timeout: 10_000 }).toEqual([]);
        } finally {
          dkim.failNext(0);
        }
      });
    });

    it('verify_sender = "off": a warning at connect, and an unsigned From is taken as written', async () => {
      const lines: { level: number; msg: string }[] = [];
      const logger = pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
            done();
          },
        }),
      );
      await withAdapter(
        async (recorder) => {
          expect(lines).toContainEqual(
            expect.objectContaining({ level: 40, msg: expect.stringMatching(/not verified/) }),
          );
          await mail.send(await composeMail(toBot('unsigned, trusted')));
          await expect
            .poll(() => recorder.received.map((m) => m.text), { timeout: 30_000 })
            .toEqual(['unsigned, trusted']);
        },
        { config: configFor({ verify_sender: 'off' }), logger },
      );
      // With the default, the same unsigned mail is refused, and nothing is warned.
      lines.length = 0;
      await withAdapter(
        async (recorder) => {
          await mail.send(await composeMail(toBot('unsigned, refused')));
          await expect.poll(() => recorder.rejected, { timeout: 30_000 }).toHaveLength(1);
          expect(recorder.rejected[0]).toMatch(/without a DKIM signature/);
          expect(recorder.received).toEqual([]);
          expect(lines.filter((line) => line.level >= 40)).toEqual([]);
        },
        { logger },
      );
    });
  },
);
