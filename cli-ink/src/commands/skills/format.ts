import { readFile } from 'node:fs/promises';
import type { ApiResponse } from '@hearth/client';
import { showControls as show } from '@hearth/gateway/show-controls';
import { CliError } from '../../cli-error.ts';

/** A skill as the gateway answers it (GET /skills and the answers that return one skill). */
export type Skill = ApiResponse<'/skills'>['skills'][number];

export const formatSkill = (s: Skill): string =>
  `${show(s.name)}  ${s.state}  ${s.tools.length ? s.tools.map(show).join(', ') : '(no tools)'}${
    s.load_error ? `  error: ${show(s.load_error)}` : ''
  }`;

/** Reads a skill file, refusing what the gateway would refuse anyway before sending it. */
export async function readSkillFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}
