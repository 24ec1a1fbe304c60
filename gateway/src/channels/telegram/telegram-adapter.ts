import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, HttpError, type Context } from 'grammy';
import type { ChannelConfig } from '../../config/schema.ts';
import type { AdapterIo, ChannelAdapter, ChannelLink, InboundMessage } from '../ports.ts';

type TelegramConfig = Extract<ChannelConfig, { type: 'telegram' }>;

/** The Bot API's limit for one message's text. */
export const TELEGRAM_TEXT_LIMIT = 4096;

export interface TelegramOptions {
  /** Long-polling timeout in seconds (the Bot API holds getUpdates open this long). */
  pollTimeoutSeconds?: number;
}

/** The inbound message of an update, or undefined for anything that is not a text message. */
export function toInbound(ctx: Context, botUsername: string): InboundMessage | undefined {
  const message = ctx.message;
  if (!message?.text || !message.from || message.from.is_bot) return undefined;
  const direct = message.chat.type === 'private';
  const handle = `@${botUsername}`.toLowerCase();
  const mentioned =
    (message.entities ?? []).some(
      (entity) =>
        entity.type === 'mention' &&
        message.text?.slice(entity.offset, entity.offset + entity.length).toLowerCase() === handle,
    ) || message.reply_to_message?.from?.username?.toLowerCase() === botUsername.toLowerCase();
  return {
    id: `${message.chat.id}:${message.message_id}`,
    chatId: String(message.chat.id),
    senderId: String(message.from.id),
    senderName: message.from.username ?? message.from.first_name,
    text: message.text,
    direct,
    mentioned,
  };
}

/**
 * Telegram through grammY, long polling. `api_root` points grammY at the Bot API (a local Bot
 * API server, or the fake in tests). getUpdates' own retries (network errors, 429 retry_after)
 * are grammY's; the channel reports them as health, and a fatal answer (401 bad token, 409
 * another poller) as a lost connection the service reconnects with backoff. Sends retry on 429
 * with the server's retry_after (@grammyjs/auto-retry).
 */
export function createTelegramAdapter(
  config: TelegramConfig,
  io: AdapterIo,
  options: TelegramOptions = {},
): ChannelAdapter {
  let link: ChannelLink | undefined;
  let bot: Bot | undefined;
  let polling: Promise<void> | undefined;

  function makeBot(): Bot {
    const made = new Bot(config.bot_token, { client: { apiRoot: config.api_root } });
    // Each attempt's outcome is the connection's health (installed first, so it sees every
    // attempt the retry below makes): a network failure of getUpdates is the far end gone
    // (grammY keeps retrying it), a success is it back.
    made.api.config.use(async (prev, method, payload, signal) => {
      try {
        const result = await prev(method, payload, signal);
        if (method === 'getUpdates') link?.health(true);
        return result;
      } catch (error) {
        if (method === 'getUpdates' && error instanceof HttpError)
          link?.health(false, `Bot API unreachable: ${error.message}`);
        throw error;
      }
    });
    made.api.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 60 }));
    made.on('message', async (ctx) => {
      const inbound = toInbound(ctx, made.botInfo.username);
      if (inbound) await link?.receive(inbound);
    });
    made.catch((error) => {
      link?.rejected(`update ${error.ctx.update.update_id}: ${String(error.error)}`);
    });
    return made;
  }

  return {
    type: 'telegram',
    maxTextLength: TELEGRAM_TEXT_LIMIT,
    // The Bot API serves getUpdates to one poller (409 Conflict for a second).
    exclusive: true,
    async connect(next) {
      link = next;
      const made = makeBot();
      await made.init(); // getMe: a bad token or an unreachable API fails the connect
      bot = made;
      await new Promise<void>((resolve) => {
        polling = made
          .start({
            timeout: options.pollTimeoutSeconds ?? 30,
            allowed_updates: ['message'],
            onStart: () => resolve(),
          })
          .catch((error: unknown) => {
            resolve();
            if (bot === made) next.lost(error);
          });
      });
      io.logger.info({ bot: made.botInfo.username }, 'telegram polling');
    },
    async disconnect() {
      const current = bot;
      if (current?.isRunning()) await current.stop();
      await polling;
      polling = undefined;
    },
    async sendText(chatId, text) {
      if (!bot) throw new Error('telegram is not connected');
      await bot.api.sendMessage(chatId, text);
    },
    async typing(chatId) {
      await bot?.api.sendChatAction(chatId, 'typing');
    },
  };
}
