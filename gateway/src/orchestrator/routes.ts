import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { OrchestratorService } from './orchestrator-service.ts';
import {
  createBody,
  nameParams,
  namespaceClearedResponse,
  namespaceResponse,
  namespacesResponse,
  nodeRecord,
  nodesResponse,
  patchBody,
  removedResponse,
  routeBody,
  routeResponse,
  statusResponse,
} from './schemas.ts';

/** The orchestrator's REST routes, relative to `/api/v1`. */
export function orchestratorRoutes(service: OrchestratorService): AnyRoute[] {
  const tags = ['orchestrator'];
  return [
    defineRoute({
      method: 'get',
      path: '/orchestrator/nodes',
      summary: 'Registered orchestrator nodes with their routing configuration',
      tags,
      response: nodesResponse,
      handler: async () => {
        const nodes = await service.list();
        return { nodes, count: nodes.length };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/orchestrator/nodes',
      summary: 'Registers a node (409 when the name is taken, 422 for an unknown model id)',
      tags,
      body: createBody,
      response: nodeRecord,
      handler: ({ body }) => service.create(body),
    }),
    defineRoute({
      method: 'get',
      path: '/orchestrator/nodes/{name}',
      summary: 'One orchestrator node',
      tags,
      params: nameParams,
      response: nodeRecord,
      handler: ({ params }) => service.get(params.name),
    }),
    defineRoute({
      method: 'patch',
      path: '/orchestrator/nodes/{name}',
      summary: 'Updates a node (enable/disable, priority, keywords, model …)',
      tags,
      params: nameParams,
      body: patchBody,
      response: nodeRecord,
      handler: ({ params, body }) => service.update(params.name, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/orchestrator/nodes/{name}',
      summary: 'Removes a node with its memory namespace',
      tags,
      params: nameParams,
      response: removedResponse,
      handler: ({ params }) => service.remove(params.name),
    }),
    defineRoute({
      method: 'post',
      path: '/orchestrator/route',
      summary:
        'Chooses a node for a task and has it answer once through its model_override (no memory, no tools); without content the prompt is built from task_type and channel',
      tags,
      body: routeBody,
      response: routeResponse,
      handler: ({ body }) => service.route(body),
    }),
    defineRoute({
      method: 'get',
      path: '/orchestrator/status',
      summary: 'Health and per-node request, error and token counters',
      tags,
      response: statusResponse,
      handler: () => service.status(),
    }),
    defineRoute({
      method: 'get',
      path: '/orchestrator/nodes/{name}/memory',
      summary: "A node's memory namespace: row count and last activity",
      tags,
      params: nameParams,
      response: namespaceResponse,
      handler: ({ params }) => service.namespace(params.name),
    }),
    defineRoute({
      method: 'delete',
      path: '/orchestrator/nodes/{name}/memory',
      summary: "Clears a node's memory namespace (never another's, never the main memory)",
      tags,
      params: nameParams,
      response: namespaceClearedResponse,
      handler: ({ params }) => service.clearNamespace(params.name),
    }),
    defineRoute({
      method: 'get',
      path: '/orchestrator/namespaces',
      summary: 'Every node namespace with aggregate stats',
      tags,
      response: namespacesResponse,
      handler: () => service.namespaces(),
    }),
  ];
}
