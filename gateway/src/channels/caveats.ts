import type { ChannelConfig } from '../config/schema.ts';

/**
 * What an owner should know about a channel's configuration while it runs, shown with its state
 * in `/api/v1/status` `backends`: a setting that leaves a door open. Undefined when none.
 */
export function channelCaveat(config: ChannelConfig): string | undefined {
  if (config.type === 'email' && config.verify_sender === 'off')
    return 'senders not verified: verify_sender = "off" trusts any From';
  return undefined;
}
