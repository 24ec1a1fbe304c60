import type { Logger } from 'pino';
import type { Area } from '../lifecycle/area.ts';
import type { NamespaceMemory } from './namespaces.ts';
import { createNamespaces } from './namespaces.ts';
import { createNodeCounters, type OrchestratorMetrics } from './node-counters.ts';
import {
  createOrchestratorService,
  type NodeGenerator,
  type OrchestratorService,
} from './orchestrator-service.ts';
import type { OrchestratorNodeStore } from './ports.ts';
import { orchestratorRoutes } from './routes.ts';
import type { LongTermMemory } from '../memory/ports.ts';
import { defineArea } from '../lifecycle/install.ts';

export interface OrchestratorAreaDeps {
  /** The node store; 503 "The database is starting" until the database area has opened it. */
  nodes: () => OrchestratorNodeStore;
  /** Where the namespaces live; 503 until memory has started. */
  memory: () => NamespaceMemory;
  router: NodeGenerator;
  metrics: OrchestratorMetrics;
  logger: Logger;
  now: () => number;
  monotonicNow?: () => number;
}

export interface OrchestratorArea extends Area {
  readonly service: OrchestratorService;
}

/**
 * The orchestrator (`/orchestrator/*`): nodes that route tasks to models, each with its own
 * memory namespace. No start-up phase of its own: it works once the database and memory do.
 */
export function orchestratorArea(deps: OrchestratorAreaDeps): OrchestratorArea {
  const service = createOrchestratorService({
    nodes: deps.nodes,
    namespaces: createNamespaces(deps.memory),
    counters: createNodeCounters({ metrics: deps.metrics, now: deps.now }),
    router: deps.router,
    logger: deps.logger.child({ area: 'orchestrator' }),
    monotonicNow: deps.monotonicNow,
  });
  return {
    name: 'orchestrator',
    routes: orchestratorRoutes(service),
    status: () => ({ orchestrator: 'router' }),
    service,
  };
}

export interface OrchestratorNeeds {
  database: {
    database: () => {
      orchestratorNodes: OrchestratorNodeStore;
      memory: Pick<LongTermMemory, 'list' | 'sessions'>;
    };
  };
  memory: {
    memory: () => { service: Pick<NamespaceMemory, 'store' | 'removeEntries' | 'removeSession'> };
  };
  providers: { router: NodeGenerator };
}

export const orchestrator = defineArea('orchestrator', (kernel, needs: OrchestratorNeeds) =>
  orchestratorArea({
    nodes: () => needs.database.database().orchestratorNodes,
    // A node's namespace: rows written through every memory tier, listed from the long-term store.
    memory: () => {
      const { service } = needs.memory.memory();
      const longTerm = needs.database.database().memory;
      return {
        store: (entry) => service.store(entry),
        list: (filter) => longTerm.list(filter),
        removeEntries: (ids) => service.removeEntries(ids),
        removeSession: (sessionId) => service.removeSession(sessionId),
        sessions: () => longTerm.sessions(),
      };
    },
    router: needs.providers.router,
    metrics: kernel.metrics,
    logger: kernel.logger,
    now: kernel.now,
    monotonicNow: kernel.monotonicNow,
  }),
);
