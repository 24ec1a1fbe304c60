import type { Logger } from 'pino';
import type { Area } from '../lifecycle/area.ts';
import { defineArea } from '../lifecycle/install.ts';
import type { UsageHistoryStore } from './history-store.ts';
import { usageHistoryRoutes } from './history-routes.ts';
import { createUsageHistory } from './usage-history.ts';
import type { UsageTracker } from './usage-tracker.ts';

const DAY_MS = 86_400_000;

export interface UsageHistoryAreaDeps {
  tracker: UsageTracker;
  /** The store; 503 "The database is starting" until the database area has opened it. */
  store: () => UsageHistoryStore;
  /** Wall clock, epoch milliseconds. */
  now: () => number;
  logger: Logger;
}

/**
 * Usage over time (`GET /usage/history`): every generation the tracker counts is also added to
 * its hour in the long-term store, which keeps it across restarts for the retention.
 */
export function usageHistoryArea(deps: UsageHistoryAreaDeps): Area {
  const logger = deps.logger.child({ area: 'usage' });
  const history = createUsageHistory({
    store: deps.store,
    now: () => deps.now() / 1000,
    logger,
  });
  deps.tracker.onRecord((record, cost) => history.record(record, cost));
  let timer: NodeJS.Timeout | undefined;
  const prune = () =>
    history.prune().catch((error: unknown) => {
      logger.warn({ err: error }, 'usage history: pruning failed');
      return 0;
    });
  return {
    name: 'usage',
    routes: usageHistoryRoutes(() => history),
    async start() {
      await prune();
      timer = setInterval(() => void prune(), DAY_MS);
      timer.unref();
    },
    async close() {
      clearInterval(timer);
      await history.flush();
    },
  };
}

export interface UsageHistoryNeeds {
  providers: { usage: UsageTracker };
  database: { database: () => { usageHistory: UsageHistoryStore } };
}

export const usage = defineArea('usage', (kernel, needs: UsageHistoryNeeds) =>
  usageHistoryArea({
    tracker: needs.providers.usage,
    store: () => needs.database.database().usageHistory,
    now: kernel.now,
    logger: kernel.logger,
  }),
);
