import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { Startup } from '../lifecycle/startup.ts';
import type { HostStats } from '../observability/host-stats.ts';
import { featureStates } from '../models/optional-packages.ts';
import { metricsSnapshot, type Metrics } from '../observability/metrics.ts';
import {
  gatewayStatusResponse,
  healthResponse,
  metricsSnapshotResponse,
  readinessResponse,
} from './schemas.ts';
import type { StatusSources } from './status-sources.ts';

export interface StatusRouteDeps {
  version: string;
  agentName: string;
  startup: Startup;
  sources: StatusSources;
  hostStats: HostStats;
  metrics: Metrics;
  /** Milliseconds since the process started (monotonic). */
  uptimeMs: () => number;
}

/** Root paths: liveness and readiness. Neither makes a call to any LLM provider. */
export function rootStatusRoutes(deps: StatusRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      summary: 'Liveness: 200 as soon as the process is up',
      tags: ['status'],
      response: healthResponse,
      handler: () => ({ status: 'ok' as const, version: deps.version, agent: deps.agentName }),
    }),
    defineRoute({
      method: 'get',
      path: '/ready',
      summary: 'Readiness: 503 while initialising, 200 once every start-up phase is done',
      tags: ['status'],
      response: readinessResponse,
      status: (result) => (result.ready ? 200 : 503),
      handler: () => {
        const channel = deps.sources.channelConnected();
        const checks = {
          phase: deps.startup.done,
          runtime: deps.startup.done && deps.sources.runtimeAvailable(),
          ...(channel === null ? {} : { channel_connected: channel }),
        };
        const ready = Object.values(checks).every(Boolean);
        return { ready, checks };
      },
    }),
  ];
}

export function apiStatusRoutes(deps: StatusRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/status',
      summary: 'Gateway status: version, uptime, phase, host figures, backends',
      tags: ['status'],
      response: gatewayStatusResponse,
      handler: async () => {
        if (deps.startup.done) await deps.sources.settle?.();
        const failed = deps.startup.failure !== null;
        return {
          model_ready: await deps.sources.modelReady(),
          status: failed
            ? ('failed' as const)
            : deps.startup.done
              ? ('ok' as const)
              : ('starting' as const),
          version: deps.version,
          uptime_seconds: Math.round(deps.uptimeMs() / 100) / 10,
          active_sessions: deps.sources.activeSessions(),
          runtime_available: deps.startup.done && deps.sources.runtimeAvailable(),
          init_phase: deps.startup.phase,
          init_error: deps.startup.failure,
          voice: deps.sources.voice(),
          host: await deps.hostStats.read(),
          memory: { semantic_available: deps.sources.semanticAvailable() },
          backends: deps.sources.backends(),
          features: featureStates(),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/metrics',
      summary: 'Metrics in the Prometheus text format',
      tags: ['status'],
      contentType: 'text/plain',
      response: z.string(),
      handler: () => deps.metrics.registry.metrics(),
    }),
    defineRoute({
      method: 'get',
      path: '/metrics/snapshot',
      summary: 'Metrics as JSON: name → {type, description, values by label string}',
      tags: ['status'],
      response: metricsSnapshotResponse,
      handler: () => metricsSnapshot(deps.metrics.registry),
    }),
  ];
}
