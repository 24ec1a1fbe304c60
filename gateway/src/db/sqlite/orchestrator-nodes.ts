import { orm } from '../drizzle.ts';
import { nowEpochSeconds } from '../json-text.ts';
import type { OrchestratorNode, OrchestratorNodeStore } from '../../orchestrator/ports.ts';
import type { SqliteDrizzle } from './repositories.ts';
import { orchestratorNodes } from './schema.ts';

const { asc, eq } = orm;

const columns = {
  name: orchestratorNodes.name,
  model_override: orchestratorNodes.modelOverride,
  enabled: orchestratorNodes.enabled,
  priority: orchestratorNodes.priority,
  keywords: orchestratorNodes.keywords,
  channels: orchestratorNodes.channels,
  task_types: orchestratorNodes.taskTypes,
  system_prompt: orchestratorNodes.systemPrompt,
  created_at: orchestratorNodes.createdAt,
  updated_at: orchestratorNodes.updatedAt,
};

/** better-sqlite3 is synchronous; this keeps the port's promise contract (throws become rejections). */
const settle = <T>(work: () => T): Promise<T> => new Promise((resolve) => resolve(work()));

/** The `orchestrator_nodes` table of the SQLite store. */
export function sqliteOrchestratorNodeStore(db: SqliteDrizzle): OrchestratorNodeStore {
  return {
    list: () =>
      settle((): OrchestratorNode[] =>
        db.select(columns).from(orchestratorNodes).orderBy(asc(orchestratorNodes.name)).all(),
      ),
    get: (name) =>
      settle(() =>
        db.select(columns).from(orchestratorNodes).where(eq(orchestratorNodes.name, name)).get(),
      ),
    insert: (node) =>
      settle(() => {
        const now = nowEpochSeconds();
        return db
          .insert(orchestratorNodes)
          .values({
            name: node.name,
            modelOverride: node.model_override,
            enabled: node.enabled,
            priority: node.priority,
            keywords: node.keywords,
            channels: node.channels,
            taskTypes: node.task_types,
            systemPrompt: node.system_prompt,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing({ target: orchestratorNodes.name })
          .returning(columns)
          .get();
      }),
    update: (name, patch) =>
      settle(() =>
        db
          .update(orchestratorNodes)
          .set({
            modelOverride: patch.model_override,
            enabled: patch.enabled,
            priority: patch.priority,
            keywords: patch.keywords,
            channels: patch.channels,
            taskTypes: patch.task_types,
            systemPrompt: patch.system_prompt,
            updatedAt: nowEpochSeconds(),
          })
          .where(eq(orchestratorNodes.name, name))
          .returning(columns)
          .get(),
      ),
    remove: (name) =>
      settle(
        () =>
          db.delete(orchestratorNodes).where(eq(orchestratorNodes.name, name)).run().changes > 0,
      ),
  };
}
