import type { Logger } from 'pino';
import { HearthError, notFound, validationError } from '../errors.ts';
import {
  providerSpec,
  resolveModel,
  type RouteRequest,
  type RoutedGeneration,
} from '../providers/ports.ts';
import { costOf } from '../usage/ports.ts';
import type { Namespaces, NamespaceStats } from './namespaces.ts';
import { namespaceOf } from './namespaces.ts';
import type { NodeCounters } from './node-counters.ts';
import type { NodeFields, NodePatch, OrchestratorNode, OrchestratorNodeStore } from './ports.ts';
import { chooseNode, noMatchDetail, type RoutingTask } from './routing-rule.ts';

/** At most this many nodes (each is a metric label and a namespace). */
export const MAX_NODES = 100;

/** The system prompt of a node that has none of its own. */
export const DEFAULT_NODE_PROMPT =
  'You are one node of an orchestrator: answer the task below directly and completely, in one reply.';

/** What the orchestrator needs of the providers router: one generation. */
export interface NodeGenerator {
  generate(request: RouteRequest): Promise<RoutedGeneration>;
}

export interface OrchestratorServiceDeps {
  nodes: () => OrchestratorNodeStore;
  namespaces: Namespaces;
  counters: NodeCounters;
  /** The gateway's router; absent (the CLI's local fallback): routing returns a placeholder. */
  router?: NodeGenerator;
  logger: Logger;
  maxNodes?: number;
  /** Milliseconds on a monotonic clock (generation latency). */
  monotonicNow?: () => number;
}

export interface NodeView extends OrchestratorNode {
  provider: string;
  namespace: string;
}

export interface RouteResult {
  node: string;
  model: string;
  provider: string;
  text: string;
  generated: boolean;
  usage: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  cost_usd: number | null;
  latency_ms: number | null;
  score: number;
  matched_keywords: string[];
  candidates: string[];
  task_type: string | null;
  channel: string | null;
}

const providerOf = (modelId: string): string => resolveModel(modelId)?.provider ?? 'unknown';

export const viewOf = (node: OrchestratorNode): NodeView => ({
  ...node,
  provider: providerOf(node.model_override),
  namespace: namespaceOf(node.name),
});

const missing = (name: string) => notFound(`No orchestrator node named '${name}'`);

function placeholderText(node: OrchestratorNode, why: string): string {
  return `[placeholder] Task routed to node '${node.name}' (model ${node.model_override}); ${why}.`;
}

/**
 * The prompt of a routed task that came without content (the spec's body is `{task_type,
 * channel}`): built from its task type and channel, both short validated words. Undefined when
 * it has neither, so there is nothing to build from.
 */
export function taskPrompt(task: Pick<RoutingTask, 'task_type' | 'channel'>): string | undefined {
  if (task.task_type === undefined && task.channel === undefined) return undefined;
  const kind = task.task_type === undefined ? 'A task' : `A "${task.task_type}" task`;
  const where = task.channel === undefined ? '' : ` came in on the "${task.channel}" channel`;
  return (
    `${kind}${where === '' ? ' came in' : where} with no further text. Carry out what a task of ` +
    'this kind asks as well as you can; if it cannot be done without details, say which ones.'
  );
}

/**
 * The orchestrator (spec rule 19): nodes in the SQL store, the routing rule, one-shot
 * generations through each node's `model_override` with no memory retrieval, no reflection and
 * no tools, and a memory namespace per node.
 */
export function createOrchestratorService(deps: OrchestratorServiceDeps) {
  const maxNodes = deps.maxNodes ?? MAX_NODES;
  const { counters, namespaces } = deps;
  const monotonicNow = deps.monotonicNow ?? (() => performance.now());

  async function generate(node: OrchestratorNode, content: string) {
    const started = monotonicNow();
    try {
      const result = await deps.router!.generate({
        system: node.system_prompt ?? DEFAULT_NODE_PROMPT,
        messages: [{ role: 'user', content }],
        model: node.model_override,
        onlyModel: true,
      });
      return { result, ms: Math.round(monotonicNow() - started) };
    } catch (error) {
      counters.failed(node.name);
      throw error;
    }
  }

  /** One generation for the node, counted and kept in its namespace. */
  async function answer(node: OrchestratorNode, content: string) {
    const generated = await generate(node, content);
    counters.generated(node.name, generated.result.usage);
    try {
      await namespaces.remember(node.name, content, generated.result.text);
    } catch (error) {
      deps.logger.warn(
        { node: node.name, err: error instanceof Error ? error.message : String(error) },
        'orchestrator namespace write failed',
      );
    }
    return generated;
  }

  function costOfResult(result: RoutedGeneration): number | null {
    const resolved = resolveModel(result.model);
    if (!resolved) return null;
    const cost = costOf({
      provider: result.provider,
      modelId: result.model,
      nativeModelId: resolved.nativeId,
      pricing: providerSpec(result.provider).pricing,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      webSearches: result.webSearches,
    });
    return cost === null ? null : Math.round(cost * 1e8) / 1e8;
  }

  return {
    routerAvailable: (): boolean => deps.router !== undefined,

    async list(): Promise<NodeView[]> {
      return (await deps.nodes().list()).map(viewOf);
    },

    async get(name: string): Promise<NodeView> {
      const node = await deps.nodes().get(name);
      if (!node) throw missing(name);
      return viewOf(node);
    },

    async create(fields: NodeFields): Promise<NodeView> {
      const store = deps.nodes();
      if ((await store.list()).length >= maxNodes)
        throw new HearthError(
          'conflict',
          `At most ${maxNodes} orchestrator nodes can be registered; remove one first`,
        );
      const node = await store.insert(fields);
      if (!node)
        throw new HearthError(
          'conflict',
          `body.name: an orchestrator node named '${fields.name}' already exists`,
        );
      deps.logger.info({ node: node.name, model: node.model_override }, 'orchestrator node added');
      return viewOf(node);
    },

    async update(name: string, patch: NodePatch): Promise<NodeView> {
      const node = await deps.nodes().update(name, patch);
      if (!node) throw missing(name);
      return viewOf(node);
    },

    /** Removes the node, its memory namespace and its counters. */
    async remove(name: string): Promise<{ name: string; removed: true; memory_cleared: number }> {
      const store = deps.nodes();
      if (!(await store.get(name))) throw missing(name);
      const cleared = await namespaces.clear(name);
      if (!(await store.remove(name))) throw missing(name);
      counters.forget(name);
      deps.logger.info({ node: name, memory_cleared: cleared }, 'orchestrator node removed');
      return { name, removed: true, memory_cleared: cleared };
    },

    /**
     * Chooses a node by the routing rule and, with a router, has it answer in one generation
     * through its `model_override`: no memory block, no tools, no reflection. The prompt is the
     * task's content, or without one a prompt built from its task type and channel (422 when it
     * has none of the three). The exchange is then kept in the node's namespace. No candidate:
     * 404 saying why. Without a router only the node is chosen, and the text is a placeholder.
     */
    async route(task: RoutingTask): Promise<RouteResult> {
      const content = task.content?.trim() ?? '';
      const prompt = content !== '' ? content : taskPrompt(task);
      if (deps.router && prompt === undefined)
        throw validationError(
          'body: give content, or a task_type or channel to build the prompt from',
        );
      const decision = chooseNode(await deps.nodes().list(), task);
      const chosen = decision.chosen;
      if (!chosen) {
        counters.noMatch();
        throw notFound(noMatchDetail(task, decision.rejected));
      }
      const { node } = chosen;
      counters.routed(node.name);
      const base = {
        node: node.name,
        score: chosen.score,
        matched_keywords: chosen.matched_keywords,
        candidates: decision.ranking.map((r) => r.node.name),
        task_type: task.task_type ?? null,
        channel: task.channel ?? null,
      };
      if (!deps.router || prompt === undefined) {
        return {
          ...base,
          model: node.model_override,
          provider: providerOf(node.model_override),
          text: placeholderText(node, 'no router is available here, so nothing was generated'),
          generated: false,
          usage: null,
          cost_usd: null,
          latency_ms: null,
        };
      }
      const { result, ms } = await answer(node, prompt);
      const usage = {
        input_tokens: result.usage.inputTokens,
        output_tokens: result.usage.outputTokens,
        total_tokens: result.usage.inputTokens + result.usage.outputTokens,
      };
      return {
        ...base,
        model: result.model,
        provider: result.provider,
        text: result.text,
        generated: true,
        usage,
        cost_usd: costOfResult(result),
        latency_ms: ms,
      };
    },

    /**
     * `/node <name> <message>` in any channel: the named node answers once through its model,
     * like a routed task (counted and kept in its namespace), whatever the routing rule says.
     */
    async delegate(name: string, content: string): Promise<string> {
      const node = await deps.nodes().get(name);
      if (!node) throw missing(name);
      if (!node.enabled)
        throw new HearthError('conflict', `Orchestrator node '${name}' is disabled`);
      counters.routed(node.name);
      if (!deps.router) return placeholderText(node, 'no router is available here');
      const { result } = await answer(node, content);
      return `${result.text}\n\n(node ${node.name}, ${result.model})`;
    },

    async status() {
      let nodes: OrchestratorNode[] = [];
      let healthy = true;
      try {
        nodes = await deps.nodes().list();
      } catch {
        healthy = false;
      }
      const rows = nodes.map((node) => ({
        name: node.name,
        enabled: node.enabled,
        model_override: node.model_override,
        ...counters.of(node.name),
      }));
      return {
        healthy,
        router_available: deps.router !== undefined,
        nodes_total: nodes.length,
        nodes_enabled: nodes.filter((node) => node.enabled).length,
        requests_total: rows.reduce((sum, row) => sum + row.requests, 0),
        errors_total: rows.reduce((sum, row) => sum + row.errors, 0),
        no_match_total: counters.noMatchTotal(),
        nodes: rows,
      };
    },

    async namespace(name: string): Promise<NamespaceStats> {
      if (!(await deps.nodes().get(name))) throw missing(name);
      return namespaces.stats(name);
    },

    async clearNamespace(name: string) {
      if (!(await deps.nodes().get(name))) throw missing(name);
      return { node: name, namespace: namespaceOf(name), cleared: await namespaces.clear(name) };
    },

    async namespaces() {
      const all = await namespaces.all((await deps.nodes().list()).map((node) => node.name));
      return {
        namespaces: all,
        count: all.length,
        total_entries: all.reduce((sum, ns) => sum + ns.entries, 0),
        non_empty: all.filter((ns) => ns.entries > 0).length,
      };
    },
  };
}

export type OrchestratorService = ReturnType<typeof createOrchestratorService>;
