import type { ChannelConfig } from '../config/schema.ts';
import { requireFeature } from '../models/optional-packages.ts';
import type { AdapterIo, ChannelAdapter, TxtResolver } from './ports.ts';

/** What an adapter may need besides `AdapterIo`: DNS, for the email channel's DKIM keys. */
export interface AdapterNetwork {
  resolveTxt: TxtResolver;
}

/**
 * Builds the adapter of one configured channel. Each network's module (and its library) is
 * loaded only when a channel of that type is configured. Discord, Slack and Matrix are optional
 * features (their SDKs are large): without the package, a 503 naming `hearth features add`.
 */
export async function buildChannelAdapter(
  name: string,
  config: ChannelConfig,
  io: AdapterIo,
  network: AdapterNetwork,
): Promise<ChannelAdapter> {
  switch (config.type) {
    case 'webhook': {
      const { createWebhookAdapter } = await import('./webhook/webhook-adapter.ts');
      return createWebhookAdapter(config, io);
    }
    case 'telegram': {
      const { createTelegramAdapter } = await import('./telegram/telegram-adapter.ts');
      return createTelegramAdapter(config, io);
    }
    case 'whatsapp': {
      const { createWhatsAppAdapter } = await import('./whatsapp/whatsapp-adapter.ts');
      return createWhatsAppAdapter(config, io);
    }
    case 'matrix': {
      requireFeature('matrix');
      const { createMatrixAdapter } = await import('./matrix/matrix-adapter.ts');
      return createMatrixAdapter(config, io);
    }
    case 'signal': {
      const { createSignalAdapter } = await import('./signal/signal-adapter.ts');
      return createSignalAdapter(config, io);
    }
    case 'discord': {
      requireFeature('discord');
      const { createDiscordAdapter } = await import('./discord/discord-adapter.ts');
      return createDiscordAdapter(config, io);
    }
    case 'slack': {
      requireFeature('slack');
      const { createSlackAdapter } = await import('./slack/slack-adapter.ts');
      return createSlackAdapter(config, io);
    }
    case 'email': {
      const { createEmailAdapter } = await import('./email/email-adapter.ts');
      return createEmailAdapter(config, io, { resolveTxt: network.resolveTxt });
    }
  }
}
