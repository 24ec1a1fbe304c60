import { apiStatusRoutes, rootStatusRoutes, type StatusRouteDeps } from './routes.ts';
import type { RuntimeReport } from '../config/runtime-tuning.ts';
import { mergedBackends, settleAreas, type Area } from '../lifecycle/area.ts';
import { defineArea } from '../lifecycle/install.ts';
import { createHostStats } from '../observability/host-stats.ts';
import { VERSION } from '../version.ts';
import { AGENT_NAME } from './agent-name.ts';
import type { StatusSources } from './status-sources.ts';

/** `/health`, `/ready`, `/api/v1/status` and the metrics, over what every area reports. */
export function statusArea(deps: StatusRouteDeps): Area {
  return {
    name: 'status',
    rootRoutes: rootStatusRoutes(deps),
    routes: apiStatusRoutes(deps),
  };
}

export { AGENT_NAME };

/** The status area's options. */
export interface StatusOptions {
  /** The process's allocator and heap set-up, reported in /status `backends`. */
  runtime?: RuntimeReport;
}

/** What /status reads; every installed area also reports its backends. */
export type StatusNeeds = Record<string, Area> & {
  sessions: { conversations: { size(): number } };
  providers: { modelReady: StatusSources['modelReady'] };
  agent: { available: () => boolean };
  voice: { summary: StatusSources['voice'] };
  memory: { semanticAvailable: () => boolean | null };
  channels: { connected: () => boolean | null };
};

/** Installed last: it reports on every area before it. */
export const status = defineArea(
  'status',
  (kernel, needs: StatusNeeds, options: StatusOptions | undefined) => {
    const runtime = options?.runtime;
    const area = statusArea({
      version: VERSION,
      agentName: AGENT_NAME,
      startup: kernel.startup,
      hostStats: createHostStats(kernel.paths.home),
      metrics: kernel.metrics,
      uptimeMs: kernel.uptimeMs,
      sources: {
        modelReady: needs.providers.modelReady,
        activeSessions: () => needs.sessions.conversations.size(),
        runtimeAvailable: needs.agent.available,
        voice: needs.voice.summary,
        semanticAvailable: needs.memory.semanticAvailable,
        settle: () => settleAreas(Object.values(needs as Record<string, Area>)),
        backends: () => ({
          ...mergedBackends(Object.values(needs as Record<string, Area>)),
          ...(runtime ? { allocator: runtime.allocator, heap: runtime.heap } : {}),
          ...(runtime?.compileCache ? { compile_cache: runtime.compileCache } : {}),
        }),
        channelConnected: needs.channels.connected,
      },
    });
    const sampler = kernel.metrics.processSampler;
    return {
      ...area,
      // The event-loop monitor runs from listen to close (its gauges are in the metrics).
      prepare: () => Promise.resolve(sampler.start()),
      close: () => sampler.stop(),
    };
  },
);
