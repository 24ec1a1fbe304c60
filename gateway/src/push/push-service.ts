import type { Agent } from 'node:https';
import { BodyTooLargeError, readIncomingCapped } from '../http/outbound/capped-body.ts';
import type { Logger } from '../observability/logger.ts';
import { HearthError } from '../errors.ts';
import type { SubscriptionFile, PushSubscriptionRecord } from './subscriptions.ts';
import type { VapidKeys } from './vapid-keys.ts';

export interface PushMessage {
  title: string;
  body: string;
  /** Set for an approval request: the service worker offers `actions`. */
  approval_id?: string;
  /**
   * With `approval_id`: the notification's actions. `approve` only when it shows the whole
   * command; otherwise `open` (the Approvals view, where it is shown whole) and `deny`.
   */
  actions?: ('approve' | 'deny' | 'open')[];
  /** With `approval_id` and no `approve` action: why the notification cannot approve. */
  approve_withheld?: string;
  /**
   * With `approval_id`: single-use tokens for `POST /approvals/{id}/decide`, one per decision
   * action (no approve token when Approve is withheld).
   */
  decision_tokens?: { approve?: string; deny: string };
}

export interface NotifyResult {
  /** Pushes a push service accepted (2xx). */
  sent: number;
  matched_subscribers: number;
  failed: number;
  /** Subscriptions removed because their push service answered 404 or 410. */
  removed: number;
}

/** The most of a push service's answer read (a 201 has none; an error a short text). */
export const MAX_PUSH_ANSWER_BYTES = 16 * 1024;
/** How long one delivery may take in all, its answer included. */
export const PUSH_DELIVERY_TIMEOUT_MS = 15_000;

/** The caps a push service's answer can go over (counted). */
export type PushLimit = 'answer_bytes' | 'answer_time' | 'subscriptions';

/**
 * Subscriptions kept at most (a person's browsers and devices; every notification goes to each
 * in turn). One more is refused (409) until one is removed; renewing a known endpoint always works.
 */
export const MAX_PUSH_SUBSCRIPTIONS = 100;

export interface PushServiceDeps {
  keys: VapidKeys;
  subscriptions: SubscriptionFile;
  logger: Logger;
  /** The VAPID `sub` claim: a contact for push services. */
  subject?: string;
  /** How long a push service keeps an undelivered message, in seconds. */
  ttlSeconds?: number;
  /** An https agent for the push services (tests trust their fake's certificate with it). */
  agent?: Agent;
  now: () => number;
  /** Told each time a push service's answer goes over a cap (a counter). */
  onRefused?: (limit: PushLimit) => void;
  /** How long one delivery may take in all (default PUSH_DELIVERY_TIMEOUT_MS). */
  deliveryTimeoutMs?: number;
}

/** A delivery that failed over a cap: the push service's answer was not read past it. */
class PushAnswerError extends Error {
  readonly limit: PushLimit;
  constructor(limit: PushLimit, message: string) {
    super(message);
    this.name = 'PushAnswerError';
    this.limit = limit;
  }
}

/**
 * One request web-push built (encrypted payload, VAPID headers), sent with its answer counted as
 * it streams: at most MAX_PUSH_ANSWER_BYTES and PUSH_DELIVERY_TIMEOUT_MS in all (web-push's own
 * sender keeps the whole answer, and its timeout only fires on a silent connection, so a push
 * service trickling bytes could hold a delivery and its memory forever).
 */
function send(
  details: {
    endpoint: string;
    method: string;
    headers: Record<string, string | number>;
    body: Buffer | null;
  },
  agent: Agent | undefined,
  timeoutMs: number,
): Promise<{ status: number; body: string }> {
  // node:https is taken on the first delivery, not when the gateway loads: it loads node:tls,
  // whose first load reads Node's root certificates on a thread (~20 ms of CPU at every start).
  const { request: httpsRequest } = process.getBuiltinModule('node:https');
  return new Promise((resolve, reject) => {
    const request = httpsRequest(new URL(details.endpoint), {
      method: details.method,
      headers: details.headers,
      ...(agent ? { agent } : {}),
    });
    const deadline = setTimeout(() => {
      request.destroy(
        new PushAnswerError(
          'answer_time',
          `the push service did not answer within ${timeoutMs} ms`,
        ),
      );
    }, timeoutMs);
    let settled = false;
    const settle =
      <T>(done: (value: T) => void) =>
      (value: T) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        done(value);
      };
    // The cut answer also fails the request (its socket goes): either way it says why.
    const fail = settle((error: unknown) =>
      reject(
        error instanceof BodyTooLargeError
          ? new PushAnswerError('answer_bytes', error.message)
          : error instanceof Error
            ? error
            : new Error(String(error)),
      ),
    );
    request.on('error', fail);
    request.on('response', (response) => {
      readIncomingCapped(response, {
        maxBytes: MAX_PUSH_ANSWER_BYTES,
        what: 'the push service’s answer',
      }).then(
        settle((bytes: Buffer) =>
          resolve({ status: response.statusCode ?? 0, body: bytes.toString('utf8') }),
        ),
        fail,
      );
    });
    request.end(details.body ?? undefined);
  });
}

/**
 * Delivers notifications built by web-push: the payload encrypted for each subscription
 * (aes128gcm), signed with the gateway's VAPID key, with a TTL and an urgency; sent here with
 * the answer capped (`send`). A subscription whose push service answers 404 or 410 is gone and
 * is removed.
 */
export function createPushService(deps: PushServiceDeps) {
  const vapidDetails = {
    subject: deps.subject ?? 'mailto:hearth@localhost',
    publicKey: deps.keys.publicKey,
    privateKey: deps.keys.privateKey,
  };
  async function deliver(
    record: PushSubscriptionRecord,
    payload: string,
    urgency: 'normal' | 'high',
  ): Promise<'sent' | 'failed' | 'gone'> {
    const origin = new URL(record.endpoint).origin;
    try {
      // Loaded on the first delivery, not at start-up (idle memory).
      const { default: webpush } = await import('web-push');
      const details = webpush.generateRequestDetails(
        { endpoint: record.endpoint, keys: record.keys },
        payload,
        { vapidDetails, TTL: deps.ttlSeconds ?? 3_600, urgency },
      );
      const answer = await send(
        details,
        deps.agent,
        deps.deliveryTimeoutMs ?? PUSH_DELIVERY_TIMEOUT_MS,
      );
      if (answer.status >= 200 && answer.status < 300) return 'sent';
      if (answer.status === 404 || answer.status === 410) {
        await deps.subscriptions.remove(record.endpoint);
        return 'gone';
      }
      deps.logger.warn(
        { endpoint: origin, status: answer.status, answer: answer.body.slice(0, 200) },
        'push delivery failed',
      );
      return 'failed';
    } catch (error) {
      if (error instanceof PushAnswerError) deps.onRefused?.(error.limit);
      deps.logger.warn(
        { endpoint: origin, err: error instanceof Error ? error.message : String(error) },
        'push delivery failed',
      );
      return 'failed';
    }
  }
  return {
    publicKey: deps.keys.publicKey,
    async subscribe(subscription: Omit<PushSubscriptionRecord, 'created_at'>) {
      const known = deps.subscriptions.list().some((r) => r.endpoint === subscription.endpoint);
      if (!known && deps.subscriptions.list().length >= MAX_PUSH_SUBSCRIPTIONS) {
        deps.onRefused?.('subscriptions');
        throw new HearthError(
          'conflict',
          `At most ${MAX_PUSH_SUBSCRIPTIONS} push subscriptions are kept; remove one (DELETE /push/subscribe) first`,
        );
      }
      const created = await deps.subscriptions.put({
        ...subscription,
        created_at: new Date(deps.now()).toISOString(),
      });
      return { subscribed: true as const, created, endpoint: subscription.endpoint };
    },
    async unsubscribe(endpoint: string) {
      return { unsubscribed: await deps.subscriptions.remove(endpoint), endpoint };
    },
    list: () => deps.subscriptions.list(),
    async notify(message: PushMessage): Promise<NotifyResult> {
      const targets = deps.subscriptions.list();
      const payload = JSON.stringify(message);
      const outcomes = await Promise.all(
        targets.map((record) => deliver(record, payload, message.approval_id ? 'high' : 'normal')),
      );
      return {
        sent: outcomes.filter((o) => o === 'sent').length,
        matched_subscribers: targets.length,
        failed: outcomes.filter((o) => o !== 'sent').length,
        removed: outcomes.filter((o) => o === 'gone').length,
      };
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
