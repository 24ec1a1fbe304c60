import { join } from 'node:path';
import { silentLogger } from '../../observability/logger.ts';
import { BUILTIN_TOOLS, createToolRegistry } from '../../tools/ports.ts';
import { AGENT_TOOLS } from '../../agent/ports.ts';
import { WRITE_SKILL } from '../review/write-skill-tool.ts';
import type { SkillIsolation } from '../types.ts';
import { createSkillValidator } from '../checks.ts';
import { createSkillStore, type SkillStore } from './skill-store.ts';

/**
 * The CLI writes skills but never runs them: its stand-in isolation refuses to start a host, so
 * a skill written here is listed in state `error` for this process only; the manifest on disk
 * says `active` and a gateway loads it when it starts.
 */
const writeOnly: SkillIsolation = {
  description: 'none (written by the CLI, loaded by the gateway)',
  start: () => Promise.reject(new Error('the CLI does not run skills')),
};

/**
 * This machine's skills folder (`{home}/skills`) through Hearth's skill store, for the length of
 * `work`: what the CLI uses without a running gateway (`migrate`, `hub install|remove`).
 */
export async function withLocalSkillStore<T>(
  home: string,
  work: (store: SkillStore) => Promise<T>,
): Promise<T> {
  // The built-ins a gateway reserves before any skill loads: an install here is refused (409)
  // as the gateway's would be, not only refused at the gateway's next load.
  const tools = createToolRegistry();
  for (const name of [...BUILTIN_TOOLS, ...AGENT_TOOLS, WRITE_SKILL])
    tools.reserve(name, 'builtin');
  const store = createSkillStore({
    skillsDir: join(home, 'skills'),
    dataDir: join(home, 'skill-data'),
    validate: createSkillValidator(),
    isolation: writeOnly,
    tools,
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
