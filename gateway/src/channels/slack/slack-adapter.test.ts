import { channelSchema } from '../../config/schema.ts';
import { silentLogger } from '../../observability/logger.ts';
import { runChannelConformance } from '../conformance.ts';
import { startFakeSlack } from '../testing/fake-slack.ts';
import { createSlackAdapter } from './slack-adapter.ts';

const TOKENS = { bot: 'xoxb-conformance', app: 'xapp-conformance' };

runChannelConformance(
  'slack (Bolt in Socket Mode against the fake Web API and Socket Mode WebSocket)',
  async () => {
    const fake = await startFakeSlack(TOKENS);
    const config = channelSchema.parse({
      type: 'slack',
      bot_token: TOKENS.bot,
      app_token: TOKENS.app,
      web_api_url: fake.apiUrl,
    });
    if (config.type !== 'slack') throw new Error('unreachable');
    const adapter = createSlackAdapter(config, {
      fetch: globalThis.fetch,
      now: Date.now,
      logger: silentLogger(),
    });
    return {
      adapter,
      inbound: async ({ senderId, text }) => {
        await fake.linked();
        fake.message({ from: senderId, text });
      },
      malformed: async () => {
        await fake.linked();
        fake.rawFrame('{"type": "events_api", "envelope_id": ');
        fake.rawFrame(JSON.stringify({ type: 'events_api', envelope_id: 'e-1', payload: {} }));
        fake.rawFrame(JSON.stringify({ type: 'something_new', envelope_id: 'e-2' }));
        fake.rawEvent({ type: 'message', channel_type: 'im', text: 'no user or ts' });
        fake.message({ from: 'U0000STRANGE', text: 'x'.repeat(41_000) });
      },
      sent: () => fake.sent.map((m) => ({ chatId: m.channel, text: m.text })),
      drop: () => fake.drop(),
      restore: () => fake.restore(),
      close: () => fake.close(),
    };
  },
  {
    timeoutMs: 20_000,
    skip: [
      {
        check: 'typing',
        reason: 'Slack has no typing indicator for apps outside assistant threads',
      },
    ],
  },
);
