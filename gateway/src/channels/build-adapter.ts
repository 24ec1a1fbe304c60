import type { ChannelConfig } from '../config/schema.ts';
import type { AdapterIo, ChannelAdapter } from './ports.ts';

/**
 * Builds the adapter of one configured channel. Each network's module (and its library) is
 * loaded only when a channel of that type is configured.
 */
export async function buildChannelAdapter(
  name: string,
  config: ChannelConfig,
  io: AdapterIo,
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
    case 'email': {
      const { createEmailAdapter } = await import('./email/email-adapter.ts');
      return createEmailAdapter(config, io);
    }
  }
}
