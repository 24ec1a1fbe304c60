import type { Logger } from 'pino';
import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import { createPrivacyAudit, type PrivacyAudit } from './index.ts';
import { createIsLocal } from './local-hosts.ts';
import { targetOf } from './outbound-request.ts';
import { redactUrl } from './redact-url.ts';
import { privacyRoutes } from './routes.ts';
import type { SessionContext } from './session-context.ts';
import { defineArea } from '../lifecycle/install.ts';

const isLoopbackTarget = createIsLocal([]);

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
  /**
   * Records a request made outside this process's observed HTTP stack (a skill host granted
   * network access reports its own); loopback is not egress. Dropped before the audit starts.
   */
  readonly recordRequest: (method: string, url: string) => void;
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
    recordRequest(method, url) {
      const started = audit.peek();
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return;
      }
      if (started === undefined || isLoopbackTarget(targetOf(parsed))) return;
      started.store.record({
        session_id: started.sessionContext.current()?.sessionId ?? null,
        method: method.toUpperCase(),
        url: redactUrl(parsed.href),
        destination: parsed.host,
        timestamp: Date.now() / 1000,
      });
    },
    close: () => audit.peek()?.stop(),
  };
}

export const privacy = defineArea('privacy', (kernel) =>
  privacyArea({
    dbPath: kernel.paths.auditDbPath,
    localServices: [kernel.config.models.ollama_base_url, kernel.config.memory.vector_store_url],
    trustPrivate: kernel.config.security.trust_private_services,
    logger: kernel.logger,
  }),
);
