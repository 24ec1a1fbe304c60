import type { Agent } from 'node:https';
import { join } from 'node:path';
import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import type { Logger } from '../observability/logger.ts';
import {
  createPushService,
  type PushLimit,
  type PushMessage,
  type PushService,
} from './push-service.ts';
import { pushRoutes } from './routes.ts';
import { openSubscriptionFile, PUSH_SUBSCRIPTIONS_FILE } from './subscriptions.ts';
import { loadOrCreateVapidKeys } from './vapid-keys.ts';
import type { ApprovalNotice, ApprovalsArea } from '../approvals/ports.ts';
import { defineArea } from '../lifecycle/install.ts';
import {
  displayCommand,
  displayInline,
  untrustedSourcesOf,
} from '../../../common/text/command-display.ts';

export interface PushAreaDeps {
  home: string;
  logger: Logger;
  now: () => number;
  /** An https agent for push services (tests trust their fake's certificate with it). */
  agent?: Agent;
  /** Told each time a push service's answer goes over a cap (a counter). */
  onRefused?: (limit: PushLimit) => void;
}

export interface PushArea extends Area {
  /** Sends to every subscription; nothing (and no error) before start-up has run. */
  readonly notify: (message: PushMessage) => Promise<void>;
  readonly push: () => PushService;
}

/** Web push (`/push/*`): VAPID keys and subscriptions in the state directory, real delivery. */
export function pushArea(deps: PushAreaDeps): PushArea {
  const push = late<PushService>({ name: 'Push notifications', plural: true });
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
        createPushService({
          keys,
          subscriptions,
          logger,
          now: deps.now,
          agent: deps.agent,
          onRefused: deps.onRefused,
        }),
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

/** The longest command a notification shows whole; a longer one gets no Approve action. */
export const PUSH_COMMAND_MAX = 100;

/**
 * Why a push cannot offer Approve for `approval`, or null when it can: a notification shows a
 * few lines at most, so a command it cannot show whole (long, or with marked whitespace, line
 * breaks or hidden characters) or a turn that read untrusted content must be read in Hearth
 * first (issue #27).
 */
export function approveWithheld(approval: ApprovalNotice['approval']): string | null {
  const shown = displayCommand(approval.command);
  const sources = untrustedSourcesOf(approval);
  if (sources.length > 0)
    return `The agent read ${sources.map((s) => displayInline(`${s.kind} ${s.name}`)).join(', ')} before asking.`;
  if (shown.length > PUSH_COMMAND_MAX)
    return `The command is ${shown.size}, more than a notification shows.`;
  if (shown.marked)
    return `The command has runs of spaces, line breaks or hidden characters (${shown.size}).`;
  return null;
}

/**
 * An approval request as a push, with a decision token for each action it offers so the service
 * worker needs no API key. When the notification can show the whole command it carries the
 * whole notice and offers Approve and Deny; otherwise it says why, offers only Open and Deny,
 * and carries no approve token at all (approving then takes the app, where it is shown whole).
 */
export function approvalPush(
  notice: ApprovalNotice,
  tokens: ApprovalsArea['decisionTokens'],
): PushMessage {
  const { approval, expiresAt } = notice;
  const withheld = approveWithheld(approval);
  const deny = tokens.mint(approval.id, 'deny', expiresAt);
  if (withheld === null) {
    return {
      title: `Approve ${approval.tool_name}?`,
      body: notice.text,
      approval_id: approval.id,
      actions: ['approve', 'deny'],
      decision_tokens: { approve: tokens.mint(approval.id, 'approve', expiresAt), deny },
    };
  }
  const start = displayInline(approval.command).slice(0, PUSH_COMMAND_MAX);
  return {
    title: `Review ${displayInline(approval.tool_name)} in Hearth`,
    body:
      `${withheld} Open Hearth to read it whole before approving; no Approve here.\n` +
      `Starts: ${start}…`,
    approval_id: approval.id,
    actions: ['open', 'deny'],
    approve_withheld: withheld,
    decision_tokens: { deny },
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
      onRefused: (limit) =>
        kernel.metrics.extensionInputRefusedTotal.inc({ source: 'push', limit }),
    });
    // No socket of the session saw an approval notice: a push to the subscribed browsers.
    needs.approvals.notices.subscribe('fallback', async (notice) => {
      await area.notify(approvalPush(notice, needs.approvals.decisionTokens));
      return true;
    });
    return area;
  },
);
