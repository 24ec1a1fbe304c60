/** `hearth migrate neuralcleave`: the predecessor's state directory into this Hearth. */
export { migrateNeuralcleave, type MigrateOptions, type MigrationReport } from './migrate.ts';
export { withLocalSkillStore } from '../../skills/ports.ts';
export { readOnlyTarget, storeTarget } from './skills.ts';
export { localEmbedder } from './embedder.ts';
export { PUSH_SUBSCRIPTIONS_FILE } from '../../push/ports.ts';
/** The long-term store the migration writes into (so the CLI need not load the whole gateway). */
export { openDatabase } from '../../db/ports.ts';
export type { Database } from '../../db/ports.ts';
