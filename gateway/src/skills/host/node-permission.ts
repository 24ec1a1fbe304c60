/**
 * The Node wall: the skill runs in a child `node --permission` whose file system reads are
 * limited to the runtime folder, the skill's folder and its data folder, whose writes are
 * limited to the data folder, and which may not start processes or workers, load addons,
 * use WASI or the inspector (all denied by default under --permission), nor compile code
 * from strings. node:sqlite is switched off (it writes files past the permission model), and
 * runtime.mjs takes away process.kill and the like before the skill loads. The heap is capped with --max-old-space-size.
 */
import { join } from 'node:path';
import type { ChildCommand } from './skill-process.ts';

export interface NodeSkillCommandInput {
  nodePath: string;
  /** The folder holding runtime.mjs (nothing else of the gateway). */
  runtimeDir: string;
  skillFile: string;
  skillDir: string;
  dataDir: string;
  maxOldSpaceMb: number;
  env: Record<string, string>;
}

export function nodeSkillCommand(input: NodeSkillCommandInput): ChildCommand {
  return {
    file: input.nodePath,
    args: [
      '--permission',
      `--allow-fs-read=${input.runtimeDir}`,
      `--allow-fs-read=${input.skillDir}`,
      `--allow-fs-read=${input.dataDir}`,
      `--allow-fs-write=${input.dataDir}`,
      `--max-old-space-size=${input.maxOldSpaceMb}`,
      '--disallow-code-generation-from-strings',
      '--no-addons',
      // node:sqlite opens database files without asking the permission model (Node 24).
      '--no-experimental-sqlite',
      '--disable-warning=ExperimentalWarning',
      join(input.runtimeDir, 'runtime.mjs'),
      input.skillFile,
    ],
    env: input.env,
    cwd: input.dataDir,
  };
}
