import { join } from 'node:path';
import { silentLogger } from '../../observability/logger.ts';
import type { SkillIsolation } from '../../skills/ports.ts';
import { createSkillStore, type SkillStore } from '../../skills/store/skill-store.ts';
import { createSkillValidator } from '../../skills/validate/validator.ts';
import { createToolRegistry } from '../../tools/registry.ts';

/** The CLI writes skills but never runs them: a gateway loads them when it starts. */
const writeOnly: SkillIsolation = {
  description: 'none (written by the CLI, loaded by the gateway)',
  start: () => Promise.reject(new Error('the CLI does not run skills')),
};

/** This machine's skills folder (`{home}/skills`) through Hearth's skill store, for `work`. */
export async function withLocalSkillStore<T>(
  home: string,
  work: (store: SkillStore) => Promise<T>,
): Promise<T> {
  const store = createSkillStore({
    skillsDir: join(home, 'skills'),
    dataDir: join(home, 'skill-data'),
    validate: createSkillValidator(),
    isolation: writeOnly,
    tools: createToolRegistry(),
    logger: silentLogger(),
    now: Date.now,
  });
  try {
    await store.loadAll();
    return await work(store);
  } finally {
    await store.close();
  }
}
