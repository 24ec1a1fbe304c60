import type { Agent } from 'node:https';
import type { Logger } from '../observability/logger.ts';
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
}

/**
 * Delivers notifications with web-push: the payload encrypted for each subscription
 * (aes128gcm), signed with the gateway's VAPID key, with a TTL and an urgency. A subscription
 * whose push service answers 404 or 410 is gone and is removed.
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
    try {
      // Loaded on the first delivery, not at start-up (idle memory).
      const { default: webpush } = await import('web-push');
      await webpush.sendNotification({ endpoint: record.endpoint, keys: record.keys }, payload, {
        vapidDetails,
        TTL: deps.ttlSeconds ?? 3_600,
        urgency,
        timeout: 10_000,
        ...(deps.agent ? { agent: deps.agent } : {}),
      });
      return 'sent';
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410) {
        await deps.subscriptions.remove(record.endpoint);
        return 'gone';
      }
      deps.logger.warn(
        { endpoint: new URL(record.endpoint).origin, status, err: (error as Error).message },
        'push delivery failed',
      );
      return 'failed';
    }
  }
  return {
    publicKey: deps.keys.publicKey,
    async subscribe(subscription: Omit<PushSubscriptionRecord, 'created_at'>) {
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
