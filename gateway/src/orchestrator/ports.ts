/**
 * The orchestrator's ports. A node is a named route to one model: tasks are matched to nodes by
 * the routing rule (routing-rule.ts), and the chosen node answers through its `model_override`.
 * Nodes live in the SQL store (`OrchestratorNodeStore`, both adapters in ../db/) and pass
 * `runNodeStoreConformance` (node-store-conformance.ts).
 */

/** A registered node, as stored and as the REST API returns it. */
export interface OrchestratorNode {
  /** 1 to 64 characters: a lower-case letter or digit, then letters, digits, `_` or `-`. */
  name: string;
  /** A model id of the provider catalog (its prefix names the provider). */
  model_override: string;
  enabled: boolean;
  /** Higher wins a tie on keyword hits. */
  priority: number;
  /** Lower-case words or phrases looked for in the task's content. */
  keywords: string[];
  /** Channels the node serves; empty: every channel. */
  channels: string[];
  /** Task types the node takes; empty: every task type. */
  task_types: string[];
  /** The system prompt of its generations; null: the orchestrator's default. */
  system_prompt: string | null;
  /** Epoch seconds. */
  created_at: number;
  updated_at: number;
}

/** The fields a caller chooses (everything but the timestamps). */
export type NodeFields = Omit<OrchestratorNode, 'created_at' | 'updated_at'>;

/** A partial update; the name never changes. */
export type NodePatch = Partial<Omit<NodeFields, 'name'>>;

export interface OrchestratorNodeStore {
  /** Every node, by name. */
  list(): Promise<OrchestratorNode[]>;
  get(name: string): Promise<OrchestratorNode | undefined>;
  /** Undefined when a node of that name exists already (nothing is changed then). */
  insert(node: NodeFields): Promise<OrchestratorNode | undefined>;
  /** Undefined when there is no such node. */
  update(name: string, patch: NodePatch): Promise<OrchestratorNode | undefined>;
  /** False when there was no such node. */
  remove(name: string): Promise<boolean>;
}
