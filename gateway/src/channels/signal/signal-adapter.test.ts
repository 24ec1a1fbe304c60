import { describe, expect, it } from 'vitest';
import { channelSchema } from '../../config/schema.ts';
import { silentLogger } from '../../observability/logger.ts';
import { recordingLink, runChannelConformance } from '../conformance.ts';
import { RPC_ERRORS, startFakeSignalCli } from '../testing/fake-signal-cli.ts';
import { createSignalAdapter } from './signal-adapter.ts';

const ACCOUNT = '+15550001111';

runChannelConformance(
  'signal (JSON-RPC and SSE against the fake signal-cli daemon)',
  async () => {
    const fake = await startFakeSignalCli(ACCOUNT);
    const config = channelSchema.parse({ type: 'signal', account: ACCOUNT, rpc_url: fake.rpcUrl });
    if (config.type !== 'signal') throw new Error('unreachable');
    const adapter = createSignalAdapter(
      config,
      { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() },
      { retryMs: 100, maxRetryMs: 500 },
    );
    return {
      adapter,
      inbound: ({ senderId, text }) => {
        fake.message({ from: senderId, text });
        return Promise.resolve();
      },
      malformed: () => {
        fake.rawEvent('receive', '{"envelope":');
        fake.rawEvent('receive', JSON.stringify({ envelope: { source: 5, timestamp: 'x' } }));
        fake.rawEvent('receive', JSON.stringify({ envelope: { source: '+1', timestamp: 1 } }));
        fake.rawEvent('unknown-kind', '{}');
        fake.rawEvent(
          'receive',
          JSON.stringify({
            envelope: {
              source: '+1',
              timestamp: 2,
              dataMessage: { timestamp: 2, message: 'x'.repeat(20_000) },
            },
          }),
        );
        return Promise.resolve();
      },
      sent: () => fake.sent,
      typing: () => fake.typing,
      drop: () => fake.drop(),
      restore: () => fake.restore(),
      close: () => fake.close(),
    };
  },
  { timeoutMs: 15_000 },
);

describe('signal adapter beyond the conformance suite', () => {
  const setup = async () => {
    const fake = await startFakeSignalCli(ACCOUNT);
    const config = channelSchema.parse({ type: 'signal', account: ACCOUNT, rpc_url: fake.rpcUrl });
    if (config.type !== 'signal') throw new Error('unreachable');
    const io = { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() };
    return { fake, adapter: createSignalAdapter(config, io, { retryMs: 100 }) };
  };

  it('sends to a group by its id, and a JSON-RPC error object becomes a thrown error', async () => {
    const { fake, adapter } = await setup();
    fake.addGroup('R3JvdXA=');
    await adapter.sendText('group:R3JvdXA=', 'to the group');
    expect(fake.sent).toEqual([{ chatId: 'group:R3JvdXA=', text: 'to the group' }]);
    await expect(adapter.sendText('group:bm9wZQ==', 'x')).rejects.toThrow(
      /send failed \(-1\): Invalid group id/,
    );
    fake.failNext('sendTyping', RPC_ERRORS.invalidParams, 'Invalid params');
    await expect(adapter.typing?.('+15550002222')).rejects.toThrow(/-32602/);
    await fake.close();
  });

  it('still sends after disconnect (graceful); refuses to connect when the daemon is down', async () => {
    const { fake, adapter } = await setup();
    await adapter.connect(recordingLink().link);
    await adapter.disconnect();
    await adapter.sendText('+15550002222', 'late reply');
    expect(fake.sent.map((m) => m.text)).toEqual(['late reply']);
    await fake.close();
    await expect(adapter.connect(recordingLink().link)).rejects.toThrow();
  });

  it('a daemon that hangs with the stream open is noticed by its health check; the stream reopens and replays', async () => {
    const fake = await startFakeSignalCli(ACCOUNT);
    const config = channelSchema.parse({ type: 'signal', account: ACCOUNT, rpc_url: fake.rpcUrl });
    if (config.type !== 'signal') throw new Error('unreachable');
    const io = { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() };
    const adapter = createSignalAdapter(config, io, { retryMs: 100, idleCheckMs: 200 });
    const recorder = recordingLink();
    await adapter.connect(recorder.link);
    fake.message({ from: '+15550003333', text: 'before' });
    await expect
      .poll(() => recorder.received.map((m) => m.text), { timeout: 10_000 })
      .toEqual(['before']);
    fake.freeze();
    fake.message({ from: '+15550003333', text: 'while hung' });
    // Silent and unreachable: the stream is given up (health down), not waited on forever.
    await expect.poll(() => recorder.health.at(-1), { timeout: 10_000 }).toBe(false);
    fake.thaw();
    await expect
      .poll(() => recorder.received.map((m) => m.text), { timeout: 10_000 })
      .toEqual(['before', 'while hung']);
    expect(recorder.health.at(-1)).toBe(true);
    expect(recorder.lost).toEqual([]);
    await adapter.disconnect();
    await fake.close();
  });
});
