import { orm } from '../drizzle.ts';
import { nowEpochSeconds } from '../json-text.ts';
import type { OrchestratorNodeStore } from '../../orchestrator/ports.ts';
import type { PostgresDrizzle } from './repositories.ts';
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

/** The `orchestrator_nodes` table of the PostgreSQL store. */
export function postgresOrchestratorNodeStore(db: PostgresDrizzle): OrchestratorNodeStore {
  return {
    list: () => db.select(columns).from(orchestratorNodes).orderBy(asc(orchestratorNodes.name)),
    async get(name) {
      const rows = await db
        .select(columns)
        .from(orchestratorNodes)
        .where(eq(orchestratorNodes.name, name));
      return rows[0];
    },
    async insert(node) {
      const now = nowEpochSeconds();
      const rows = await db
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
        .returning(columns);
      return rows[0];
    },
    async update(name, patch) {
      const rows = await db
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
        .returning(columns);
      return rows[0];
    },
    async remove(name) {
      const rows = await db
        .delete(orchestratorNodes)
        .where(eq(orchestratorNodes.name, name))
        .returning({ name: orchestratorNodes.name });
      return rows.length > 0;
    },
  };
}
