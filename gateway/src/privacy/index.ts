import type { AnyRoute } from '../http/route.ts';
import { openAuditStore, type AuditStore } from './audit-store.ts';
import { createEgressObserver, type EgressObserver } from './egress-observer.ts';
import { createIsLocal } from './local-hosts.ts';
import { privacyRoutes } from './routes.ts';
import { createSessionContext, type SessionContext } from './session-context.ts';

export interface PrivacyAuditOptions {
  /** `{data_dir}/privacy_audit.db` or `HEARTH_AUDIT_DB_PATH` (config's `auditDbPath`). */
  dbPath: string;
  /**
   * Destinations that are not egress besides loopback (always excluded): the local runtime and
   * other services of the own stack, each `host`, `host:port` or a URL.
   */
  localHosts: readonly string[];
  /** Epoch seconds; defaults to the system clock. */
  now?: () => number;
}

export interface PrivacyAudit {
  readonly store: AuditStore;
  /** Wrap each chat turn in `sessionContext.run(sessionId, …)` to attribute its requests. */
  readonly sessionContext: SessionContext;
  /** `GET`/`DELETE /privacy/report`, to mount under `/api/v1`. */
  readonly routes: AnyRoute[];
  /** Starts observing outbound HTTP(S) of the whole process. Idempotent. */
  start(): void;
  /** Stops observing and closes the database. Idempotent; the audit cannot be restarted. */
  stop(): void;
}

/** Opens (synchronously) the audit database and builds the observer, routes and context. */
export function createPrivacyAudit(options: PrivacyAuditOptions): PrivacyAudit {
  const now = options.now ?? (() => Date.now() / 1000);
  const isLocal = createIsLocal(options.localHosts);
  const store = openAuditStore(options.dbPath, { now });
  const sessionContext = createSessionContext();
  let observer: EgressObserver | undefined;
  let stopped = false;

  return {
    store,
    sessionContext,
    routes: privacyRoutes(store),
    start() {
      if (stopped || observer) return;
      observer = createEgressObserver({
        isLocal,
        record: (entry) => store.record(entry),
        sessionContext,
        now,
      });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      observer?.stop();
      store.close();
    },
  };
}

export type { AuditStore, AuditStoreOptions } from './audit-store.ts';
export type { EgressObserver, EgressObserverOptions } from './egress-observer.ts';
export type { EgressTarget, IsLocal } from './local-hosts.ts';
export type { SessionContext, SessionScope } from './session-context.ts';
export type { AuditReport, ClearResult, EgressEntry } from './types.ts';
export { openAuditStore } from './audit-store.ts';
export { createEgressObserver } from './egress-observer.ts';
export { createIsLocal, isLoopback } from './local-hosts.ts';
export { redactUrl } from './redact-url.ts';
export { privacyRoutes } from './routes.ts';
export { createSessionContext } from './session-context.ts';
