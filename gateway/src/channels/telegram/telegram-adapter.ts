import { createHash, timingSafeEqual } from 'node:crypto';
import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, HttpError, type Transformer } from 'grammy';
import type { ChannelConfig } from '../../config/schema.ts';
import { HearthError, unavailable } from '../../errors.ts';
import { BodyTooLargeError } from '../../http/outbound/capped-body.ts';
import type { AdapterIo, ChannelAdapter, ChannelLink, WebhookRequest } from '../ports.ts';
import { BotApiAnswerError, botApiFetch } from './bot-api-fetch.ts';
import { boundedCalls, describeCallError, SEND_BOUNDS, type CallBounds } from './bounded-calls.ts';
import { readTelegramCursor, writeTelegramCursor } from './telegram-cursor.ts';
import { readUpdate } from './telegram-update.ts';

type TelegramConfig = Extract<ChannelConfig, { type: 'telegram' }>;

/** The Bot API's limit for one message's text. */
export const TELEGRAM_TEXT_LIMIT = 4096;

/**
 * How long an update id handed over is remembered against a repeat: the Bot API keeps an
 * update for 24 hours, and a webhook delivery it thinks failed is retried within them.
 */
export const UPDATE_CLAIM_MS = 25 * 3_600_000;

export interface TelegramOptions {
  /** Long-polling timeout in seconds (the Bot API holds getUpdates open this long). */
  pollTimeoutSeconds?: number;
  /** Attempts and deadline of every call but polling (bounded-calls.ts). */
  bounds?: CallBounds;
}

/** How long a request may wait for its answer beyond the long poll's own timeout. */
const ANSWER_GRACE_SECONDS = 15;

/** The header the Bot API sends a webhook's `secret_token` back in. */
export const SECRET_TOKEN_HEADER = 'x-telegram-bot-api-secret-token';

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

/** The JSON of a verified body, or a 400 saying it is none. */
function parseJson(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new HearthError('bad_request', 'Webhook body is not valid JSON');
  }
}

/** The platform's AbortSignal, as grammY's types name theirs (it takes either). */
const grammySignal = (signal: AbortSignal) =>
  signal as unknown as Parameters<Bot['api']['getMe']>[0];

/** `work`, or a rejection as soon as `signal` aborts (what `work` still does goes on unheard). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const aborted = () =>
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) aborted();
    signal.addEventListener('abort', aborted, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
  });
}

/** The claim of an update id could not be recorded (the database is unreachable). */
class ClaimUnrecorded extends Error {
  override readonly name = 'ClaimUnrecorded';
}

/**
 * Telegram through grammY, long polling (or, with `mode = "webhook"`, updates the Bot API POSTs
 * to `/api/v1/channels/webhook/<name>`: `setWebhook` registers `webhook_url` with
 * `secret_token`, and each delivery's `X-Telegram-Bot-Api-Secret-Token` is checked in constant
 * time before its body is parsed). `api_root` points grammY at the Bot API (a local Bot API
 * server, or the fake in tests).
 *
 * Every update is checked (telegram-update.ts) before anything is done with it: a malformed one
 * is refused and counted. The update id of each text message handed over is claimed in the
 * database, so one the Bot API hands out again — polling or webhook, after a restart, or to
 * another gateway on the database — is answered once; polling goes on after the last update_id
 * confirmed (the channel's cursor), not from the start of what the Bot API still holds.
 *
 * getUpdates' own retries (network errors, 429 retry_after) are grammY's; the channel reports
 * them as health, and an answer that is not the Bot API's (a 502 page, cut-off JSON) as a
 * counted error naming what came back; a fatal answer (401 bad token, 409 another poller) is a
 * lost connection the service reconnects with backoff. Sends retry on 429 with the server's
 * retry_after (@grammyjs/auto-retry); every call but polling is bounded in attempts and time
 * (bounded-calls.ts), and every answer is cut at `max_answer_bytes` (counted in
 * `extension_input_refused_total{source="telegram",limit="answer_bytes"}`). A connect in
 * progress — getMe, deleteWebhook — is aborted by `abortConnect` (a disable does not wait for it).
 */
export function createTelegramAdapter(
  config: TelegramConfig,
  io: AdapterIo,
  options: TelegramOptions = {},
): ChannelAdapter {
  let link: ChannelLink | undefined;
  let bot: Bot | undefined;
  let polling: Promise<void> | undefined;
  /** Aborts the connect in progress (its getMe). */
  let connectAbort: AbortController | undefined;
  /** getUpdates at the edge (pollingEdge), set once polling starts; innermost of the calls. */
  let edge: Transformer | undefined;
  const webhookMode = config.mode === 'webhook';
  const pollTimeout = options.pollTimeoutSeconds ?? 30;

  /**
   * Hands a checked update's text message over, once: its update id is claimed first. Answers
   * what became of it; throws `ClaimUnrecorded` when the claim cannot be recorded.
   */
  async function take(
    current: ChannelLink,
    made: Bot,
    raw: unknown,
  ): Promise<'taken' | 'repeated' | 'refused' | 'ignored'> {
    const verdict = readUpdate(raw, made.botInfo.username);
    if (verdict.kind === 'unusable' || verdict.kind === 'refused') {
      current.rejected(verdict.reason);
      return 'refused';
    }
    if (verdict.kind === 'ignored') return 'ignored';
    let first: boolean;
    try {
      first = await current.claim(
        `update:${made.botInfo.id}:${verdict.updateId}`,
        io.now() + UPDATE_CLAIM_MS,
      );
    } catch (error) {
      throw new ClaimUnrecorded(`update ${verdict.updateId} could not be recorded`, {
        cause: error,
      });
    }
    if (!first) {
      io.logger.info({ update: verdict.updateId }, 'repeated telegram update dropped');
      return 'repeated';
    }
    await current.receive(verdict.message);
    return 'taken';
  }

  /**
   * getUpdates at the edge: polls after the last confirmed update_id (kept as the cursor),
   * records each confirmation, reports each attempt's outcome as health, counts answers that are
   * not the Bot API's, and drops (and counts) updates without a usable id.
   */
  function pollingEdge(current: ChannelLink, botId: number, stored: number | undefined) {
    let confirmed = stored ?? 0;
    const floor = stored === undefined ? 0 : stored + 1;
    const edge = async (
      prev: (method: string, payload: unknown, signal?: AbortSignal) => Promise<unknown>,
      method: string,
      payload: unknown,
      signal?: AbortSignal,
    ): Promise<unknown> => {
      if (method !== 'getUpdates') return prev(method, payload, signal);
      const asked = payload as { offset?: number };
      const offset = Math.max(asked.offset ?? 0, floor);
      if (offset - 1 > confirmed) {
        confirmed = offset - 1;
        await current.cursor.write(writeTelegramCursor(botId, confirmed, io.now()));
      }
      let answer: { ok: boolean; result?: unknown };
      try {
        answer = (await prev(method, { ...asked, offset }, signal)) as typeof answer;
      } catch (error) {
        if (error instanceof HttpError) {
          if (error.error instanceof BodyTooLargeError) {
            current.rejected(`getUpdates: ${error.error.message}`);
            current.health(false, `getUpdates: ${error.error.message}`);
          } else if (error.error instanceof BotApiAnswerError) {
            current.rejected(`getUpdates: ${error.error.message}`);
            current.health(false, `getUpdates: ${error.error.message}`);
          } else current.health(false, describeCallError(error)); // names getUpdates
        }
        throw error;
      }
      if (!answer.ok) return answer;
      if (!Array.isArray(answer.result)) {
        const reason = 'getUpdates answered a result that is not a list of updates';
        current.rejected(reason);
        current.health(false, reason);
        throw new BotApiAnswerError(reason);
      }
      const usable: unknown[] = [];
      for (const update of answer.result as unknown[]) {
        const verdict = readUpdate(update, '');
        if (verdict.kind === 'unusable') current.rejected(`getUpdates: ${verdict.reason}`);
        else usable.push(update);
      }
      current.health(true);
      // Nothing usable to move the offset past: wait (grammY retries a failed poll after 3 s)
      // rather than ask again at once for what cannot be confirmed.
      if (usable.length === 0 && answer.result.length > 0)
        throw new BotApiAnswerError('getUpdates answered no update with a usable update_id');
      return { ...answer, result: usable };
    };
    return edge as Transformer;
  }

  function makeBot(current: ChannelLink): Bot {
    const made = new Bot(config.bot_token, {
      client: {
        apiRoot: config.api_root,
        fetch: botApiFetch(io.fetch, {
          token: config.bot_token,
          maxAnswerBytes: config.max_answer_bytes,
          onOver: () => io.refused?.('answer_bytes'),
        }),
        timeoutSeconds: pollTimeout + ANSWER_GRACE_SECONDS,
      },
    });
    // Innermost first: the polling edge sees every attempt; 429s and 5xx are retried (a
    // request that got no answer is the bounds' to retry); the bounds wrap it all.
    made.api.config.use((prev, method, payload, signal) =>
      edge ? edge(prev, method, payload, signal) : prev(method, payload, signal),
    );
    made.api.config.use(
      autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 60, rethrowHttpErrors: true }),
    );
    made.api.config.use(boundedCalls(options.bounds ?? SEND_BOUNDS));
    // Every update goes through the edge check first; nothing else handles it.
    made.use(async (ctx) => {
      await take(current, made, ctx.update);
    });
    made.catch((error) => {
      // A claim that cannot be recorded stops polling before the update is confirmed: the
      // service reconnects with backoff, and the update is fetched again.
      if (error.error instanceof ClaimUnrecorded) throw error.error;
      current.rejected(`update ${String(error.ctx.update.update_id)}: ${String(error.error)}`);
    });
    return made;
  }

  /** Starts long polling from the cursor; resolves once polling started. */
  async function startPolling(current: ChannelLink, made: Bot, signal: AbortSignal): Promise<void> {
    const stored = readTelegramCursor(await current.cursor.read(), made.botInfo.id, io.now());
    // Aborted meanwhile: polling must not start behind the connect's back.
    signal.throwIfAborted();
    edge = pollingEdge(current, made.botInfo.id, stored);
    await new Promise<void>((resolve, reject) => {
      let started = false;
      polling = made
        .start({
          timeout: pollTimeout,
          allowed_updates: ['message'],
          onStart: () => {
            started = true;
            resolve();
          },
        })
        .catch((error: unknown) => {
          // Before polling started (deleteWebhook failed, or the connect was aborted): the
          // connect fails; after, the connection is lost.
          if (!started) reject(error instanceof Error ? error : new Error(String(error)));
          else if (bot === made) current.lost(error);
        });
    });
    io.logger.info({ bot: made.botInfo.username, after: stored ?? null }, 'telegram polling');
  }

  return {
    type: 'telegram',
    maxTextLength: TELEGRAM_TEXT_LIMIT,
    // The Bot API serves getUpdates to one poller (409 Conflict for a second); webhook
    // deliveries may reach any gateway.
    exclusive: !webhookMode,
    async connect(next) {
      link = next;
      const made = makeBot(next);
      const abort = new AbortController();
      connectAbort = abort;
      try {
        // getMe, once: a bad token or an unreachable API fails the connect (grammY's own
        // `init` would retry it without end), and the service retries with backoff.
        made.botInfo = await made.api.getMe(grammySignal(abort.signal));
        abort.signal.throwIfAborted();
        bot = made;
        if (!webhookMode) {
          // grammY's deleteWebhook before polling retries on its own: the abort ends the wait.
          await untilAborted(startPolling(next, made, abort.signal), abort.signal);
          return;
        }
        await made.api.setWebhook(
          config.webhook_url,
          { secret_token: config.secret_token, allowed_updates: ['message'] },
          grammySignal(abort.signal),
        );
      } finally {
        if (connectAbort === abort) connectAbort = undefined;
      }
      io.logger.info({ bot: made.botInfo.username }, 'telegram webhook set');
    },
    async disconnect() {
      if (webhookMode) {
        // The webhook stays registered: Telegram keeps and retries updates until we are back.
        link = undefined;
        return;
      }
      const current = bot;
      // stop() aborts the poll in flight; its confirming getUpdates is bounded (bounded-calls.ts).
      if (current?.isRunning())
        await current
          .stop()
          .catch((error: unknown) =>
            io.logger.info({ err: describeCallError(error) }, 'telegram offset not confirmed'),
          );
      // The loop ends by itself once stopped; it may be in grammY's 3 s pause after a failed
      // poll, which nothing can cut short — not worth holding a disable for.
      const loop = polling;
      polling = undefined;
      await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, 500).unref())]);
    },
    abortConnect() {
      connectAbort?.abort(new Error('the channel was stopped while connecting'));
      if (bot?.isRunning()) void bot.stop().catch(() => undefined);
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
            const currentLink = link;
            if (!current || !currentLink) throw unavailable('The channel is not connected');
            const json = parseJson(request.rawBody);
            const verdict = readUpdate(json, current.botInfo.username);
            // Not an update at all: refused (the service counts it); Telegram sends no such thing.
            if (verdict.kind === 'unusable')
              throw new HearthError('validation', `Webhook body is ${verdict.reason}`);
            let outcome: Awaited<ReturnType<typeof take>>;
            try {
              outcome = await take(currentLink, current, json);
            } catch (error) {
              if (error instanceof ClaimUnrecorded)
                throw unavailable(
                  'Webhook not taken: the channel could not record it, try again',
                  error,
                );
              currentLink.rejected(`update ${verdict.updateId}: ${String(error)}`);
              outcome = 'refused';
            }
            // A refused update is still answered 200: Telegram would only deliver it again.
            if (outcome === 'repeated') return { json: { ok: true, duplicate: true } };
            if (outcome === 'refused') return { json: { ok: true, refused: true } };
            return { json: { ok: true } };
          },
        }
      : {}),
  };
}
