import type { Logger } from 'pino';
import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import { createPrivacyAudit, type PrivacyAudit } from './index.ts';
import { privacyRoutes } from './routes.ts';
import type { SessionContext } from './session-context.ts';

export interface PrivacyAreaDeps {
  /** `{data_dir}/privacy_audit.db` or `HEARTH_AUDIT_DB_PATH`. */
  dbPath: string;
  /** The configured local runtime and vector store URLs (empty ones are ignored). */
  localServices: readonly string[];
  /** `security.trust_private_services`. */
  trustPrivate: boolean;
  logger: Logger;
}

export interface PrivacyArea extends Area {
  /** Attributes a turn's outbound requests to its session, once the audit has started. */
  readonly sessionContext: () => SessionContext;
}

/**
 * The privacy audit: records every outbound HTTP(S) request of the process. Loopback is never
 * egress; the configured local services only where they resolve to this machine.
 */
export function privacyArea(deps: PrivacyAreaDeps): PrivacyArea {
  const audit = late<PrivacyAudit>('The privacy audit');
  return {
    name: 'privacy',
    routes: privacyRoutes({
      report: (sessionId) => audit.get().store.report(sessionId),
      clear: (sessionId) => audit.get().store.clear(sessionId),
    }),
    async start() {
      audit.set(
        createPrivacyAudit({
          dbPath: deps.dbPath,
          localHosts: deps.localServices.filter(Boolean),
          trustPrivate: deps.trustPrivate,
          logger: deps.logger.child({ area: 'privacy' }),
        }),
      );
      audit.get().start();
      await audit.get().localHostsChecked();
    },
    sessionContext: () => audit.get().sessionContext,
    close: () => audit.peek()?.stop(),
  };
}
