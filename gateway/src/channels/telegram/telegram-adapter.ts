import { createHash, timingSafeEqual } from 'node:crypto';
import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, HttpError, type Context } from 'grammy';
import type { Update } from 'grammy/types';
import type { ChannelConfig } from '../../config/schema.ts';
import { HearthError, unavailable } from '../../errors.ts';
import type {
  AdapterIo,
  ChannelAdapter,
  ChannelLink,
  InboundMessage,
  WebhookRequest,
} from '../ports.ts';

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
  const forwardedFrom = forwardedFromOf(message);
  return {
    id: `${message.chat.id}:${message.message_id}`,
    chatId: String(message.chat.id),
    senderId: String(message.from.id),
    senderName: message.from.username ?? message.from.first_name,
    text: message.text,
    direct,
    mentioned,
    ...(forwardedFrom === undefined ? {} : { forwardedFrom }),
  };
}

/** Who a forwarded message first came from (Bot API `forward_origin`), or undefined. */
function forwardedFromOf(message: NonNullable<Context['message']>): string | undefined {
  const origin = message.forward_origin;
  if (!origin) return undefined;
  switch (origin.type) {
    case 'user':
      return origin.sender_user.username
        ? `@${origin.sender_user.username}`
        : origin.sender_user.first_name;
    case 'hidden_user':
      return origin.sender_user_name;
    case 'chat':
      return origin.sender_chat.title ?? 'a chat';
    case 'channel':
      return origin.chat.title ?? 'a channel';
    default:
      return 'someone else';
  }
}

/** The header the Bot API sends a webhook's `secret_token` back in. */
export const SECRET_TOKEN_HEADER = 'x-telegram-bot-api-secret-token';

/** Update ids remembered to drop a repeated delivery (Telegram retries until it gets a 2xx). */
const SEEN_UPDATES = 10_000;

const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(
    createHash('sha256').update(given).digest(),
    createHash('sha256').update(expected).digest(),
  );

/** The secret token of a delivery, checked in constant time before anything reads its body. */
function verifySecret(request: WebhookRequest, expected: string): void {
  const given = request.headers[SECRET_TOKEN_HEADER];
  if (typeof given !== 'string' || !sameSecret(given, expected))
    throw new HearthError('unauthorized', `Webhook refused: bad or missing ${SECRET_TOKEN_HEADER}`);
}

/** The update a verified body holds, or a 400/422 saying why not. */
function parseUpdate(rawBody: Buffer): Update {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new HearthError('bad_request', 'Webhook body is not valid JSON');
  }
  const updateId = (json as { update_id?: unknown } | null)?.update_id;
  if (
    typeof json !== 'object' ||
    json === null ||
    Array.isArray(json) ||
    !Number.isSafeInteger(updateId)
  )
    throw new HearthError('validation', 'Webhook body is not a Telegram update');
  return json as Update;
}

/**
 * Telegram through grammY, long polling (or, with `mode = "webhook"`, updates the Bot API POSTs
 * to `/api/v1/channels/webhook/<name>`: `setWebhook` registers `webhook_url` with
 * `secret_token`, each delivery's `X-Telegram-Bot-Api-Secret-Token` is checked in constant time
 * before its body is parsed, and a repeated `update_id` is dropped). `api_root` points grammY at the Bot API (a local Bot
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
  const webhookMode = config.mode === 'webhook';
  const seenUpdates = new Set<number>();

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

  /** A new update id (true), or one already delivered (false). */
  function firstDelivery(updateId: number): boolean {
    if (seenUpdates.has(updateId)) return false;
    seenUpdates.add(updateId);
    if (seenUpdates.size > SEEN_UPDATES) seenUpdates.delete(seenUpdates.values().next().value ?? 0);
    return true;
  }

  return {
    type: 'telegram',
    maxTextLength: TELEGRAM_TEXT_LIMIT,
    // The Bot API serves getUpdates to one poller (409 Conflict for a second); webhook
    // deliveries may reach any gateway.
    exclusive: !webhookMode,
    async connect(next) {
      link = next;
      const made = makeBot();
      await made.init(); // getMe: a bad token or an unreachable API fails the connect
      bot = made;
      if (webhookMode) {
        await made.api.setWebhook(config.webhook_url, {
          secret_token: config.secret_token,
          allowed_updates: ['message'],
        });
        io.logger.info({ bot: made.botInfo.username }, 'telegram webhook set');
        return;
      }
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
      if (webhookMode) {
        // The webhook stays registered: Telegram keeps and retries updates until we are back.
        link = undefined;
        return;
      }
      const current = bot;
      if (current?.isRunning()) await current.stop();
      await polling;
      polling = undefined;
    },
    async sendText(chatId, text) {
      if (!bot) throw new Error('telegram is not connected');
      // No link preview: Telegram would fetch a URL the agent wrote (Hearth issue #27).
      await bot.api.sendMessage(chatId, text, { link_preview_options: { is_disabled: true } });
    },
    async typing(chatId) {
      await bot?.api.sendChatAction(chatId, 'typing');
    },
    ...(webhookMode
      ? {
          async webhook(request: WebhookRequest) {
            if (request.method !== 'POST')
              throw new HearthError('not_found', 'Telegram webhooks are POSTed');
            verifySecret(request, config.secret_token);
            const current = bot;
            if (!current || !link) throw unavailable('The channel is not connected');
            const update = parseUpdate(request.rawBody);
            if (!firstDelivery(update.update_id)) return { json: { ok: true, duplicate: true } };
            try {
              await current.handleUpdate(update);
            } catch (error) {
              link.rejected(`update ${update.update_id}: ${String(error)}`);
            }
            return { json: { ok: true } };
          },
        }
      : {}),
  };
}
