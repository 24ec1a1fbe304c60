import type { Metrics } from '../observability/metrics.ts';

export interface NodeCounts {
  requests: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  /** Epoch seconds of the last task routed to the node; null when none yet. */
  last_routed_at: number | null;
}

export type OrchestratorMetrics = Pick<
  Metrics,
  | 'orchestratorRequestsTotal'
  | 'orchestratorErrorsTotal'
  | 'orchestratorTokensTotal'
  | 'orchestratorNoMatchTotal'
>;

const zero = (): NodeCounts => ({
  requests: 0,
  errors: 0,
  input_tokens: 0,
  output_tokens: 0,
  last_routed_at: null,
});

/**
 * Per-node request, error and token counters of this process (they reset on restart, like
 * usage), mirrored in the `orchestrator_*` metrics when given.
 */
export function createNodeCounters(deps: { metrics?: OrchestratorMetrics; now: () => number }) {
  const byNode = new Map<string, NodeCounts>();
  let noMatch = 0;
  const countsOf = (node: string): NodeCounts => {
    let counts = byNode.get(node);
    if (!counts) byNode.set(node, (counts = zero()));
    return counts;
  };
  return {
    routed(node: string): void {
      const counts = countsOf(node);
      counts.requests += 1;
      counts.last_routed_at = Math.floor(deps.now() / 1000);
      deps.metrics?.orchestratorRequestsTotal.inc({ node });
    },
    generated(node: string, usage: { inputTokens: number; outputTokens: number }): void {
      const counts = countsOf(node);
      counts.input_tokens += usage.inputTokens;
      counts.output_tokens += usage.outputTokens;
      deps.metrics?.orchestratorTokensTotal.inc({ node, direction: 'input' }, usage.inputTokens);
      deps.metrics?.orchestratorTokensTotal.inc({ node, direction: 'output' }, usage.outputTokens);
    },
    failed(node: string): void {
      countsOf(node).errors += 1;
      deps.metrics?.orchestratorErrorsTotal.inc({ node });
    },
    noMatch(): void {
      noMatch += 1;
      deps.metrics?.orchestratorNoMatchTotal.inc();
    },
    /** A removed node's counters and metric series go with it. */
    forget(node: string): void {
      byNode.delete(node);
      deps.metrics?.orchestratorRequestsTotal.remove({ node });
      deps.metrics?.orchestratorErrorsTotal.remove({ node });
      deps.metrics?.orchestratorTokensTotal.remove({ node, direction: 'input' });
      deps.metrics?.orchestratorTokensTotal.remove({ node, direction: 'output' });
    },
    of: (node: string): NodeCounts => ({ ...(byNode.get(node) ?? zero()) }),
    noMatchTotal: (): number => noMatch,
  };
}

export type NodeCounters = ReturnType<typeof createNodeCounters>;
