/**
 * `hearth orchestrate` without a running gateway: the same orchestrator service over this
 * machine's database (nodes are shared with the gateway through it), with no router, so routing
 * selects a node and returns a placeholder. Input goes through the routes' own schemas.
 */
import { parseRequestPart } from '../http/validation.ts';
import type { LongTermMemory, MemoryEntry } from '../memory/ports.ts';
import { silentLogger } from '../observability/logger.ts';
import { createNamespaces } from './namespaces.ts';
import { createNodeCounters } from './node-counters.ts';
import { createOrchestratorService } from './orchestrator-service.ts';
import type { OrchestratorNodeStore } from './ports.ts';
import { createBody, nameParams, patchBody, routeBody } from './schemas.ts';

/** The parts of this machine's database the orchestrator uses (a `Database` has them). */
export interface LocalOrchestratorStores {
  readonly orchestratorNodes: OrchestratorNodeStore;
  readonly memory: LongTermMemory;
}

export function localOrchestrator(db: LocalOrchestratorStores) {
  const service = createOrchestratorService({
    nodes: () => db.orchestratorNodes,
    namespaces: createNamespaces(() => ({
      store: (entry): Promise<MemoryEntry> => db.memory.insert(entry),
      list: (filter) => db.memory.list(filter),
      removeEntries: (ids) => db.memory.removeMany(ids),
      removeSession: (sessionId) => db.memory.removeSession(sessionId),
      sessions: () => db.memory.sessions(),
    })),
    counters: createNodeCounters({ now: Date.now }),
    logger: silentLogger(),
  });
  const name = (value: string) => parseRequestPart(nameParams, { name: value }, 'path').name;
  return {
    list: () => service.list(),
    status: () => service.status(),
    add: (body: unknown) => service.create(parseRequestPart(createBody, body, 'body')),
    update: (node: string, body: unknown) =>
      service.update(name(node), parseRequestPart(patchBody, body, 'body')),
    remove: (node: string) => service.remove(name(node)),
    route: (body: unknown) => service.route(parseRequestPart(routeBody, body, 'body')),
  };
}

export type LocalOrchestrator = ReturnType<typeof localOrchestrator>;
