import type { SkillHost, SkillIsolation, SkillToolSpec, ValidateSkill } from '../types.ts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Test doubles for the validator and the isolated host, for store-level tests only: the
 * validator refuses `child_process` and `eval` by line; the host reads the exported function
 * names and answers `<fn>(<json args>)` without running anything.
 */
export const fakeValidate: ValidateSkill = (source) => {
  const problems = source.split('\n').flatMap((text, index) => {
    if (text.includes('child_process'))
      return [{ construct: "import 'child_process'", line: index + 1, message: 'blocked module' }];
    if (/\beval\(/.test(text)) return [{ construct: 'eval', line: index + 1, message: 'blocked' }];
    return [];
  });
  return Promise.resolve({
    ok: problems.length === 0,
    problems,
    tools: problems.length ? [] : exportedTools(source),
  });
};

const exportedTools = (source: string): SkillToolSpec[] =>
  [...source.matchAll(/export (?:async )?function ([a-zA-Z]\w*)/g)]
    .map((match) => match[1]!)
    .filter((name) => !name.startsWith('_'))
    .map((name) => ({ name, description: `${name} tool`, parameters: { type: 'object' } }));

export function fakeIsolation(): SkillIsolation & { started: string[]; closed: string[] } {
  const started: string[] = [];
  const closed: string[] = [];
  return {
    description: 'fake',
    started,
    closed,
    async start(options) {
      const source = await readFile(join(options.dir, `skill.${options.kind}`), 'utf8');
      if (source.includes('FAIL_TO_START')) throw new Error('host refused');
      started.push(options.name);
      const host: SkillHost = {
        tools: exportedTools(source),
        call: (tool, args) => Promise.resolve(`${tool}(${JSON.stringify(args)})`),
        close: () => {
          closed.push(options.name);
          return Promise.resolve();
        },
      };
      return host;
    },
  };
}
