import { channelSchema } from '../../config/schema.ts';
import { silentLogger } from '../../observability/logger.ts';
import { runChannelConformance } from '../conformance.ts';
import { startFakeSignalCli } from '../testing/fake-signal-cli.ts';
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
