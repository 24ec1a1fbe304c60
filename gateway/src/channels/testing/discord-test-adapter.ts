import { channelSchema } from '../../config/schema.ts';
import { silentLogger, type Logger } from '../../observability/logger.ts';
import { createDiscordAdapter } from '../discord/discord-adapter.ts';
import type { ChannelAdapter } from '../ports.ts';

/** The real Discord adapter for `token`, its REST calls (and gateway URL) on the fake at `apiUrl`. */
export function discordAdapterOn(
  apiUrl: string,
  token: string,
  logger: Logger = silentLogger(),
): ChannelAdapter {
  const config = channelSchema.parse({ type: 'discord', bot_token: token, rest_api_url: apiUrl });
  if (config.type !== 'discord') throw new Error('unreachable');
  return createDiscordAdapter(config, { fetch: globalThis.fetch, now: Date.now, logger });
}
