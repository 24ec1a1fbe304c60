import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ChannelConfig } from '../../config/schema.ts';
import { HearthError, unavailable } from '../../errors.ts';
import { capResponse } from '../../http/outbound/capped-body.ts';
import type { AdapterIo, ChannelAdapter, ChannelLink, WebhookRequest } from '../ports.ts';

type WhatsAppConfig = Extract<ChannelConfig, { type: 'whatsapp' }>;

/** The Cloud API's limit for one text message body. */
export const WHATSAPP_TEXT_LIMIT = 4096;
/** Longest inbound text taken: the same limit (anything longer was not sent through WhatsApp). */
export const WHATSAPP_INBOUND_LIMIT = 4096;
/** The largest Graph API answer read (a send answers a few hundred bytes). */
export const MAX_GRAPH_ANSWER_BYTES = 1024 * 1024;

/**
 * A notification's signature carries no time, and Meta retries an unanswered one for up to 7
 * days: a message id is kept this long (from the message's own timestamp, or from its arrival
 * when that is later), and a message sent longer ago than this is refused and counted — a
 * replay that could no longer be told from a first delivery.
 */
export const WHATSAPP_REPLAY_WINDOW_MS = 8 * 86_400_000;

/** The parts of a Cloud API webhook notification Hearth reads (anything else is ignored). */
const notification = z.object({
  object: z.literal('whatsapp_business_account'),
  entry: z
    .array(
      z.object({
        changes: z
          .array(
            z.object({
              field: z.string(),
              value: z.object({
                metadata: z.object({ phone_number_id: z.string() }).optional(),
                contacts: z
                  .array(
                    z.object({
                      wa_id: z.string(),
                      profile: z.object({ name: z.string() }).optional(),
                    }),
                  )
                  .optional(),
                messages: z
                  .array(
                    z.object({
                      from: z.string().min(1).max(64),
                      id: z.string().min(1).max(256),
                      /** When WhatsApp received it: Unix seconds, as a string. */
                      timestamp: z.string().regex(/^\d{1,12}$/),
                      type: z.string(),
                      text: z.object({ body: z.string() }).optional(),
                    }),
                  )
                  .optional(),
              }),
            }),
          )
          .max(100),
      }),
    )
    .max(100),
});

const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(
    createHash('sha256').update(given).digest(),
    createHash('sha256').update(expected).digest(),
  );

/**
 * WhatsApp through the official Cloud API: Meta POSTs notifications to
 * `/api/v1/channels/webhook/{name}` signed with `X-Hub-Signature-256` (HMAC-SHA256 of the raw
 * body with the app secret), checked before parsing; the subscription handshake is a GET with
 * `hub.verify_token` answered with `hub.challenge`. A message id is taken once within
 * `WHATSAPP_REPLAY_WINDOW_MS` (Meta's retries and replays alike). Replies go to the Graph API
 * (`graph_api_url`, injectable) `/{phone_number_id}/messages` with the access token.
 */
export function createWhatsAppAdapter(config: WhatsAppConfig, io: AdapterIo): ChannelAdapter {
  let link: ChannelLink | undefined;
  const base = config.graph_api_url.replace(/\/+$/, '');
  const auth = { authorization: `Bearer ${config.access_token}` };

  async function graph(path: string, init: RequestInit = {}): Promise<unknown> {
    const res = await io.fetch(`${base}/${path}`, {
      ...init,
      headers: { ...auth, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      signal: AbortSignal.timeout(15_000),
    });
    // Counted as it streams: an answer without end is cut at the cap (the call fails).
    const text = await capResponse(res, {
      maxBytes: MAX_GRAPH_ANSWER_BYTES,
      what: `the Graph API's answer to ${path.split('?')[0]}`,
    }).text();
    let body: { error?: { message?: string } } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // not JSON: the status says enough
    }
    if (!res.ok)
      throw new Error(`Graph API answered ${res.status}: ${body.error?.message ?? 'no detail'}`);
    return body;
  }

  /**
   * Claims a message id for the replay window (in the database: across restarts, and among
   * gateways on one database); false for Meta's retry or a replay, which are taken once and
   * answered 200. A message older than the window is refused and counted. A claim that cannot
   * be recorded refuses the notification (503: Meta retries it, and what was taken is skipped).
   */
  async function firstDelivery(current: ChannelLink, id: string, sentAt: number) {
    const now = io.now();
    if (sentAt < now - WHATSAPP_REPLAY_WINDOW_MS) {
      current.rejected(
        `message ${id} was sent ${new Date(sentAt).toISOString()}, before the replay window`,
      );
      return false;
    }
    try {
      return await current.claim(`wamid:${id}`, Math.max(now, sentAt) + WHATSAPP_REPLAY_WINDOW_MS);
    } catch (error) {
      throw unavailable('Webhook not taken: the channel could not record it, try again', error);
    }
  }

  function verifySignature(request: WebhookRequest): void {
    const given = request.headers['x-hub-signature-256'];
    const match = typeof given === 'string' ? /^sha256=([0-9a-f]{64})$/.exec(given) : null;
    const expected = createHmac('sha256', config.app_secret).update(request.rawBody).digest();
    if (!match?.[1] || !timingSafeEqual(Buffer.from(match[1], 'hex'), expected))
      throw new HearthError('unauthorized', 'Webhook refused: bad X-Hub-Signature-256');
  }

  return {
    type: 'whatsapp',
    maxTextLength: WHATSAPP_TEXT_LIMIT,
    async connect(next) {
      // The phone number must exist and the token must be good.
      await graph(`${config.phone_number_id}?fields=id`);
      link = next;
    },
    disconnect() {
      link = undefined;
      return Promise.resolve();
    },
    async sendText(chatId, text) {
      await graph(`${config.phone_number_id}/messages`, {
        method: 'POST',
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: chatId,
          type: 'text',
          text: { preview_url: false, body: text },
        }),
      });
    },
    async webhook(request) {
      if (request.method === 'GET') {
        const token = request.query['hub.verify_token'];
        const challenge = request.query['hub.challenge'];
        if (
          request.query['hub.mode'] === 'subscribe' &&
          typeof token === 'string' &&
          typeof challenge === 'string' &&
          /^[\w-]{1,256}$/.test(challenge) &&
          sameSecret(token, config.verify_token)
        )
          return { text: challenge };
        throw new HearthError('forbidden', 'Webhook verification refused');
      }
      verifySignature(request);
      const current = link;
      if (!current) throw unavailable('The channel is not connected');
      let json: unknown;
      try {
        json = JSON.parse(request.rawBody.toString('utf8'));
      } catch {
        throw new HearthError('bad_request', 'Webhook body is not valid JSON');
      }
      const parsed = notification.safeParse(json);
      if (!parsed.success)
        throw new HearthError('validation', 'Webhook body is not a WhatsApp notification');
      let received = 0;
      for (const entry of parsed.data.entry) {
        for (const change of entry.changes) {
          if (change.field !== 'messages') continue;
          if (change.value.metadata?.phone_number_id !== config.phone_number_id) continue;
          for (const message of change.value.messages ?? []) {
            if (message.type !== 'text' || !message.text) continue;
            if (message.text.body.length > WHATSAPP_INBOUND_LIMIT) {
              current.rejected(
                `message ${message.id.slice(0, 64)}: ${message.text.body.length} characters (at most ${WHATSAPP_INBOUND_LIMIT})`,
              );
              continue;
            }
            if (!(await firstDelivery(current, message.id, Number(message.timestamp) * 1000)))
              continue;
            await current.receive({
              id: message.id,
              chatId: message.from,
              senderId: message.from,
              senderName: change.value.contacts?.find((c) => c.wa_id === message.from)?.profile
                ?.name,
              text: message.text.body,
              direct: true,
              mentioned: false,
            });
            received += 1;
          }
        }
      }
      return { json: { received } };
    },
  };
}
