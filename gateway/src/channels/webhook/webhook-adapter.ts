import { z } from 'zod';
import type { ChannelConfig } from '../../config/schema.ts';
import { HearthError, unavailable } from '../../errors.ts';
import type { AdapterIo, ChannelAdapter, ChannelLink, WebhookRequest } from '../ports.ts';
import { signedHeaders, verifyWebhook } from './signature.ts';

type WebhookConfig = Extract<ChannelConfig, { type: 'webhook' }>;

/** Longest text one webhook message carries (replies are split to this). */
export const WEBHOOK_TEXT_LIMIT = 16_000;

/** The JSON body of a signed delivery. */
export const webhookDelivery = z.strictObject({
  /** The sender's id for this message (duplicates are dropped by it). */
  id: z.string().min(1).max(200).optional(),
  sender: z.string().min(1).max(200),
  /** Where replies go; the sender when absent (a direct conversation). */
  chat: z.string().min(1).max(200).optional(),
  text: z.string().max(32_000),
  direct: z.boolean().default(true),
  mentioned: z.boolean().default(false),
});

/**
 * The generic webhook channel: a delivery is `POST /api/v1/channels/webhook/{name}` with
 * `X-Hearth-Timestamp` and `X-Hearth-Signature: sha256=<HMAC-SHA256(signing_secret,
 * "<timestamp>." + body)>`. It is verified before the body is parsed; a stale timestamp or an
 * already-seen signature (kept in the database for the replay window, so across restarts and
 * among gateways on one database) is refused (replay), so is a bad one (401). Replies are POSTed as
 * `{chat, text}` to `callback_url`, signed the same way.
 */
export function createWebhookAdapter(config: WebhookConfig, io: AdapterIo): ChannelAdapter {
  let link: ChannelLink | undefined;

  /**
   * Claims a verified delivery's signature for as long as its timestamp is inside the replay
   * window (in the database: a restart or another gateway on it does not forget it); false for
   * a replay. A claim that cannot be recorded refuses the delivery (503: the sender retries).
   */
  async function firstDelivery(current: ChannelLink, signature: string, timestamp: number) {
    try {
      const until = (timestamp + config.replay_window_seconds) * 1000 + 1000;
      return await current.claim(`signature:${signature}`, until);
    } catch (error) {
      throw unavailable('Webhook not taken: the channel could not record it, try again', error);
    }
  }

  return {
    type: 'webhook',
    maxTextLength: WEBHOOK_TEXT_LIMIT,
    connect(next) {
      link = next;
      return Promise.resolve();
    },
    disconnect() {
      link = undefined;
      return Promise.resolve();
    },
    async sendText(chatId, text) {
      if (config.callback_url === '')
        throw new Error('no callback_url is configured for this webhook channel');
      const body = JSON.stringify({ chat: chatId, text });
      const res = await io.fetch(config.callback_url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signedHeaders(config.signing_secret, io.now(), body),
        },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`callback_url answered ${res.status}`);
    },
    async webhook(request: WebhookRequest) {
      if (request.method !== 'POST')
        throw new HearthError('bad_request', 'A webhook channel takes signed POST deliveries');
      const current = link;
      if (!current) throw unavailable('The channel is not connected');
      const verdict = verifyWebhook({
        secret: config.signing_secret,
        headers: request.headers,
        body: request.rawBody,
        nowMs: io.now(),
        windowSeconds: config.replay_window_seconds,
      });
      if (!verdict.ok) throw new HearthError('unauthorized', `Webhook refused: ${verdict.reason}`);
      if (!(await firstDelivery(current, verdict.signature, verdict.timestamp)))
        throw new HearthError('unauthorized', 'Webhook refused: replayed delivery');
      let json: unknown;
      try {
        json = JSON.parse(request.rawBody.toString('utf8'));
      } catch {
        throw new HearthError('bad_request', 'Webhook body is not valid JSON');
      }
      const parsed = webhookDelivery.safeParse(json);
      if (!parsed.success)
        throw new HearthError(
          'validation',
          `Webhook body: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
        );
      const delivery = parsed.data;
      await current.receive({
        id: delivery.id,
        chatId: delivery.chat ?? delivery.sender,
        senderId: delivery.sender,
        text: delivery.text,
        direct: delivery.direct,
        mentioned: delivery.mentioned,
      });
      return { json: { received: true } };
    },
  };
}
