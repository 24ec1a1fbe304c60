import type { Logger } from 'pino';
import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import { createEgressSource } from './egress-source.ts';
import { createPrivacyAudit, type PrivacyAudit } from './index.ts';
import { redactUrl } from './redact-url.ts';
import { privacyRoutes } from './routes.ts';
import type { SessionContext } from './session-context.ts';
import { defineArea } from '../lifecycle/install.ts';

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
   * Runs `work` so that every request the audit observes it making is recorded for `source`
   * (`skill:<name>`: the gateway makes a skill's requests itself; a skill has no network).
   */
  readonly attributeEgress: <T>(source: string, work: () => Promise<T>) => Promise<T>;
  /**
   * Records a request the gateway refused to make for `source` (nothing was sent). Dropped
   * before the audit starts. Nothing a skill reports is ever recorded: only what the gateway
   * itself observed or refused.
   */
  readonly recordRefusal: (entry: {
    source: string;
    method: string;
    url: string;
    reason: string;
  }) => void;
  /** Attributes a turn's outbound requests to its session, once the audit has started. */
  readonly sessionContext: () => SessionContext;
}

/**
 * The privacy audit: records every outbound HTTP(S) request of the process. Loopback is never
 * egress; the configured local services only where they resolve to this machine.
 */
export function privacyArea(deps: PrivacyAreaDeps): PrivacyArea {
  const audit = late<PrivacyAudit>('The privacy audit');
  const egressSource = createEgressSource();
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
          egressSource,
        }),
      );
      audit.get().start();
      await audit.get().localHostsChecked();
    },
    sessionContext: () => audit.get().sessionContext,
    attributeEgress: (source, work) => egressSource.run(source, work),
    recordRefusal({ source, method, url, reason }) {
      const started = audit.peek();
      if (started === undefined) return;
      let parsed: URL | undefined;
      try {
        parsed = new URL(url);
      } catch {
        parsed = undefined;
      }
      started.store.record({
        session_id: started.sessionContext.current()?.sessionId ?? null,
        method: method.toUpperCase().slice(0, 16),
        url: parsed ? redactUrl(parsed.href) : '(not a URL)',
        destination: parsed?.host ?? '',
        timestamp: Date.now() / 1000,
        source,
        refused: reason.slice(0, 512),
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
