import type { Logger } from 'pino';
import type { AnyRoute } from '../http/route.ts';
import { openAuditStore, type AuditStore } from './audit-store.ts';
import {
  confirmLocalHosts,
  type ConfirmedLocalHosts,
  type ResolveHost,
} from './confirm-local-hosts.ts';
import { createEgressObserver, type EgressObserver } from './egress-observer.ts';
import { createEgressSource, type EgressSource } from './egress-source.ts';
import { createIsLocal } from './local-hosts.ts';
import { privacyRoutes } from './routes.ts';
import { createSessionContext, type SessionContext } from './session-context.ts';

export interface PrivacyAuditOptions {
  /** `{data_dir}/privacy_audit.db` or `HEARTH_AUDIT_DB_PATH` (config's `auditDbPath`). */
  dbPath: string;
  /**
   * Configured services that claim to be local (the local runtime, the vector store), each
   * `host`, `host:port` or a URL. Loopback is always excluded; each of these is excluded only
   * once its name resolves to loopback only — or to private addresses only, with
   * `trustPrivate` (see `confirmLocalHosts`). Until then, and otherwise, it is audited.
   */
  localHosts: readonly string[];
  /** `security.trust_private_services`: the owner confirmed private addresses are the own stack. */
  trustPrivate?: boolean;
  /** Name resolution for `localHosts` (default: the system resolver). */
  resolve?: ResolveHost;
  /** Told about each configured service that stays audited. */
  logger?: Pick<Logger, 'warn'>;
  /** Epoch seconds; defaults to the system clock. */
  now?: () => number;
  /** Who requests are made for (default: a new one; the gateway itself unless set). */
  egressSource?: EgressSource;
}

export interface PrivacyAudit {
  readonly store: AuditStore;
  /** Wrap each chat turn in `sessionContext.run(sessionId, …)` to attribute its requests. */
  readonly sessionContext: SessionContext;
  /** Wrap requests the gateway makes for a skill in `egressSource.run('skill:<name>', …)`. */
  readonly egressSource: EgressSource;
  /** `GET`/`DELETE /privacy/report`, to mount under `/api/v1`. */
  readonly routes: AnyRoute[];
  /** Starts observing outbound HTTP(S) of the whole process. Idempotent. */
  start(): void;
  /** Resolves once `localHosts` are checked (started by `start()`), with the outcome. */
  localHostsChecked(): Promise<ConfirmedLocalHosts>;
  /** Stops observing and closes the database. Idempotent; the audit cannot be restarted. */
  stop(): void;
}

/** Opens (synchronously) the audit database and builds the observer, routes and context. */
export function createPrivacyAudit(options: PrivacyAuditOptions): PrivacyAudit {
  const now = options.now ?? (() => Date.now() / 1000);
  let isLocal = createIsLocal([]);
  let checked: Promise<ConfirmedLocalHosts> | undefined;
  const store = openAuditStore(options.dbPath, { now });
  const sessionContext = createSessionContext();
  const egressSource = options.egressSource ?? createEgressSource();
  let observer: EgressObserver | undefined;
  let stopped = false;

  return {
    store,
    sessionContext,
    egressSource,
    routes: privacyRoutes(store),
    start() {
      if (stopped || observer) return;
      checked = confirmLocalHosts({
        candidates: options.localHosts,
        trustPrivate: options.trustPrivate ?? false,
        resolve: options.resolve,
      }).then((outcome) => {
        isLocal = createIsLocal(outcome.local);
        for (const { entry, addresses, reason } of outcome.audited)
          options.logger?.warn(
            { service: entry, addresses, reason },
            'a configured local service is not on this machine: its requests are audited',
          );
        return outcome;
      });
      observer = createEgressObserver({
        isLocal: (target) => isLocal(target),
        record: (entry) => store.record(entry),
        sessionContext,
        egressSource,
        now,
      });
    },
    localHostsChecked() {
      return checked ?? Promise.resolve({ local: [], audited: [] });
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
export type { ConfirmedLocalHosts, ResolveHost } from './confirm-local-hosts.ts';
export type { EgressObserver, EgressObserverOptions } from './egress-observer.ts';
export type { EgressSource } from './egress-source.ts';
export type { EgressTarget, IsLocal } from './local-hosts.ts';
export type { SessionContext, SessionScope } from './session-context.ts';
export type { AuditReport, ClearResult, EgressEntry } from './types.ts';
export { openAuditStore } from './audit-store.ts';
export { confirmLocalHosts, isPrivateAddress } from './confirm-local-hosts.ts';
export { createEgressObserver } from './egress-observer.ts';
export { createIsLocal, isLoopback } from './local-hosts.ts';
export { redactUrl } from './redact-url.ts';
export { privacyRoutes } from './routes.ts';
export { createSessionContext } from './session-context.ts';
