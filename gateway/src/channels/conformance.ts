/**
 * The behaviour every channel adapter must show, as a vitest suite run against the adapter's
 * far end (a protocol-faithful fake, or the real service). An adapter's test calls
 * `runChannelConformance(name, setup, { skip })`; a skipped check states its reason.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import type { ChannelAdapter, ChannelLink, InboundMessage } from './ports.ts';

export interface ChannelHarness {
  adapter: ChannelAdapter;
  /** The far end delivers a text from `senderId` in a direct chat with the bot. */
  inbound(message: { senderId: string; text: string }): Promise<void>;
  /** The far end delivers something malformed (a forged or broken update). */
  malformed(): Promise<void>;
  /** What the far end received from the adapter, in order. */
  sent(): { chatId: string; text: string }[];
  /** Chats the far end showed "typing…" in (networks with an indicator). */
  typing?(): string[];
  /** The far end goes away, then comes back (networks the adapter holds a connection to). */
  drop?(): Promise<void>;
  restore?(): Promise<void>;
  close(): Promise<void>;
  /**
   * Networks whose ids are not the sender's number (email: the sender is an address, the chat
   * a thread): what the adapter reports for a message from `senderId` (matchers allowed), and
   * the chat id that sends to `senderId`. By default both are `senderId` itself.
   */
  identity?: {
    received(senderId: string): { chatId: unknown; senderId: unknown };
    chatFor(senderId: string): string;
  };
}

export type ConformanceCheck = 'typing' | 'far end drops';

export interface ConformanceOptions {
  skip?: { check: ConformanceCheck; reason: string }[];
  /** How long to wait for something to arrive (polling networks need longer). */
  timeoutMs?: number;
  /** The far end cannot run here (a missing program): the whole suite skips, saying why. */
  unavailable?: string;
}

/**
 * A link that records what the adapter hands back; its cursor starts at `cursor`, its claims are
 * kept in `claims` (pass another link's to share them, as one database does).
 */
export function recordingLink(cursor?: string, claims = new Map<string, number>()) {
  const received: InboundMessage[] = [];
  const rejected: string[] = [];
  const health: boolean[] = [];
  const lost: unknown[] = [];
  let position = cursor;
  const link: ChannelLink = {
    receive: (message) => {
      received.push(message);
      return Promise.resolve();
    },
    health: (up) => health.push(up),
    lost: (error) => lost.push(error),
    rejected: (reason) => rejected.push(reason),
    claim: (key, untilMs) => {
      const held = claims.get(key);
      if (held !== undefined && held >= Date.now()) return Promise.resolve(false);
      claims.set(key, untilMs);
      return Promise.resolve(true);
    },
    cursor: {
      read: () => Promise.resolve(position),
      write: (value) => {
        position = value;
        return Promise.resolve();
      },
    },
    logger: silentLogger(),
  };
  return { link, received, rejected, health, lost, claims, cursor: () => position };
}

export function runChannelConformance(
  name: string,
  setup: () => Promise<ChannelHarness>,
  options: ConformanceOptions = {},
): void {
  const timeout = options.timeoutMs ?? 10_000;
  const skipped = (check: ConformanceCheck) => options.skip?.find((s) => s.check === check);

  const until = async (condition: () => boolean, what: string) => {
    await expect.poll(condition, { timeout, interval: 20, message: what }).toBe(true);
  };

  const title = `Channel conformance: ${name}`;
  describe.skipIf(options.unavailable !== undefined)(
    options.unavailable ? `${title} (skipped: ${options.unavailable})` : title,
    () => {
      let harness: ChannelHarness;
      let recorder: ReturnType<typeof recordingLink>;

      beforeEach(async () => {
        harness = await setup();
        recorder = recordingLink();
        await harness.adapter.connect(recorder.link);
      });
      afterEach(async () => {
        await harness.adapter.disconnect();
        await harness.close();
      });

      it('hands a message from the far end over with its chat, sender and text', async () => {
        await harness.inbound({ senderId: '4242', text: 'hello from afar ✓' });
        await until(() => recorder.received.length === 1, 'the message to arrive');
        expect(recorder.received[0]).toMatchObject({
          ...(harness.identity?.received('4242') ?? { chatId: '4242', senderId: '4242' }),
          text: 'hello from afar ✓',
          direct: true,
        });
      });

      it('sends text to a chat exactly, up to its maxTextLength', async () => {
        expect(harness.adapter.maxTextLength).toBeGreaterThanOrEqual(1_000);
        const chat = harness.identity?.chatFor('4242') ?? '4242';
        await harness.adapter.sendText(chat, 'héllo 日本語 🔥\nsecond line');
        const longest = 'x'.repeat(harness.adapter.maxTextLength);
        await harness.adapter.sendText(chat, longest);
        await until(() => harness.sent().length === 2, 'both messages at the far end');
        expect(harness.sent()).toEqual([
          { chatId: chat, text: 'héllo 日本語 🔥\nsecond line' },
          { chatId: chat, text: longest },
        ]);
      });

      it.skipIf(skipped('typing'))(
        `shows typing where the network has it${skipped('typing') ? ` (skipped: ${skipped('typing')?.reason})` : ''}`,
        async () => {
          expect(typeof harness.adapter.typing).toBe('function');
          const chat = harness.identity?.chatFor('4242') ?? '4242';
          await harness.adapter.typing?.(chat);
          await until(() => (harness.typing?.() ?? []).includes(chat), 'the typing indicator');
        },
      );

      it('refuses or ignores malformed input without failing, and keeps receiving', async () => {
        await harness.malformed().catch(() => undefined);
        await harness.inbound({ senderId: '77', text: 'after the junk' });
        await until(
          () => recorder.received.some((m) => m.text === 'after the junk'),
          'the good message',
        );
        expect(recorder.received.map((m) => m.text)).toEqual(['after the junk']);
        expect(recorder.lost).toEqual([]);
      });

      it('disconnects gracefully and connects again', async () => {
        await harness.adapter.disconnect();
        await harness.adapter.connect(recorder.link);
        await harness.inbound({ senderId: '99', text: 'after reconnect' });
        await until(
          () => recorder.received.some((m) => m.text === 'after reconnect'),
          'the message',
        );
      });

      it.skipIf(skipped('far end drops'))(
        `receives again after the far end drops and comes back${skipped('far end drops') ? ` (skipped: ${skipped('far end drops')?.reason})` : ''}`,
        async () => {
          await harness.drop?.();
          await harness.restore?.();
          await harness.inbound({ senderId: '5', text: 'back again' });
          await until(() => recorder.received.some((m) => m.text === 'back again'), 'the message');
          expect(recorder.health.at(-1)).toBe(true);
        },
      );
    },
  );
}
