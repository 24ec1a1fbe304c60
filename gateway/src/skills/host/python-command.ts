/**
 * Seed-format `skill.py`: `python3 -I` (isolated mode: no user site, no PYTHON* variables)
 * running runtime.py, which installs an audit hook before the skill loads. It only ever runs
 * inside bubblewrap: Python has no permission model of its own.
 */
import { join } from 'node:path';
import type { ChildCommand } from './skill-process.ts';

export interface PythonSkillCommandInput {
  pythonPath: string;
  runtimeDir: string;
  skillFile: string;
  dataDir: string;
  env: Record<string, string>;
}

export function pythonSkillCommand(input: PythonSkillCommandInput): ChildCommand {
  return {
    file: input.pythonPath,
    args: [
      '-I',
      '-B', // no .pyc written next to the (read-only) skill
      join(input.runtimeDir, 'runtime.py'),
      input.skillFile,
      input.dataDir,
    ],
    env: input.env,
    cwd: input.dataDir,
  };
}
