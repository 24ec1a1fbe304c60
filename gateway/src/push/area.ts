import type { Agent } from 'node:https';
import { join } from 'node:path';
import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import type { Logger } from '../observability/logger.ts';
import { createPushService, type PushMessage, type PushService } from './push-service.ts';
import { pushRoutes } from './routes.ts';
import { openSubscriptionFile, PUSH_SUBSCRIPTIONS_FILE } from './subscriptions.ts';
import { loadOrCreateVapidKeys } from './vapid-keys.ts';
import type { ApprovalNotice, ApprovalsArea } from '../approvals/ports.ts';
import { defineArea } from '../lifecycle/install.ts';

export interface PushAreaDeps {
  home: string;
  logger: Logger;
  now: () => number;
  /** An https agent for push services (tests trust their fake's certificate with it). */
  agent?: Agent;
}

export interface PushArea extends Area {
  /** Sends to every subscription; nothing (and no error) before start-up has run. */
  readonly notify: (message: PushMessage) => Promise<void>;
  readonly push: () => PushService;
}

/** Web push (`/push/*`): VAPID keys and subscriptions in the state directory, real delivery. */
export function pushArea(deps: PushAreaDeps): PushArea {
  const push = late<PushService>('Push');
  const logger = deps.logger.child({ area: 'push' });
  return {
    name: 'push',
    routes: pushRoutes(push.get),
    push: push.get,
    async start() {
      const [keys, subscriptions] = await Promise.all([
        loadOrCreateVapidKeys(join(deps.home, 'vapid-keys.json')),
        openSubscriptionFile(join(deps.home, PUSH_SUBSCRIPTIONS_FILE)),
      ]);
      push.set(
        createPushService({ keys, subscriptions, logger, now: deps.now, agent: deps.agent }),
      );
    },
    status: (): Record<string, string> => (push.peek() ? { push: 'web-push' } : {}),
    async notify(message) {
      const service = push.peek();
      if (!service) return;
      const result = await service.notify(message);
      logger.debug(result, 'push notification sent');
    },
  };
}

/** The push area's options. */
export interface PushOptions {
  /** An https agent for web push services (tests trust their fake's certificate with it). */
  agent?: Agent;
}

/**
 * An approval request as a push: the whole notice, and a decision token for each action so the
 * service worker needs no API key.
 */
export function approvalPush(
  notice: ApprovalNotice,
  tokens: ApprovalsArea['decisionTokens'],
): PushMessage {
  const { approval, expiresAt } = notice;
  return {
    title: `Approve ${approval.tool_name}?`,
    body: notice.text,
    approval_id: approval.id,
    decision_tokens: {
      approve: tokens.mint(approval.id, 'approve', expiresAt),
      deny: tokens.mint(approval.id, 'deny', expiresAt),
    },
  };
}

export const push = defineArea(
  'push',
  (
    kernel,
    needs: { approvals: Pick<ApprovalsArea, 'notices' | 'decisionTokens'> },
    options: PushOptions | undefined,
  ) => {
    const area = pushArea({
      home: kernel.paths.home,
      logger: kernel.logger,
      now: kernel.now,
      agent: options?.agent,
    });
    // No socket of the session saw an approval notice: a push to the subscribed browsers.
    needs.approvals.notices.subscribe('fallback', async (notice) => {
      await area.notify(approvalPush(notice, needs.approvals.decisionTokens));
      return true;
    });
    return area;
  },
);
