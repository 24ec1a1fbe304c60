import type { ApiBody, ApiResponse } from '@hearth/client';
import type { Command } from 'commander';
import { showControls as show } from '@hearth/gateway/show-controls';
import { CliError } from '../../cli-error.ts';
import type { CommandContext } from '../../deps.ts';
import { printResult } from '../../print-result.ts';
import { formatSkill, readSkillFile } from './format.ts';
import { registerReview } from './review.ts';
import { kindOfFile, withGateway } from './rest.ts';

type Written = ApiResponse<'/skills', 'POST'>;
type WithCode = ApiResponse<'/skills/{name}'>;
type Quarantined = ApiResponse<'/skills/{name}/quarantine', 'POST'>;

/** `hearth skills write|list|show|delete|validate|quarantine` and `skills review …`. */
export function registerSkills(program: Command, ctx: CommandContext): void {
  const skills = program.command('skills').description('skills: write, review, quarantine, delete');
  const out = (text: string) => ctx.deps.output.out(text);
  const print = (options: { json?: boolean }, data: unknown, text: () => string) =>
    printResult(ctx.deps.output, options, data, text);

  skills
    .command('write <name>')
    .description('write a skill (trusted): validated, written and loaded at once')
    .requiredOption('--file <path>', 'the skill module (skill.mjs, or skill.py)')
    .option('--kind <kind>', 'mjs or py (default: from the file name)')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { file: string; kind?: string; json?: boolean }) => {
      const kind = kindOfFile(options.file, options.kind);
      const code = await readSkillFile(options.file);
      const skill = await withGateway(
        ctx,
        async (send) =>
          (await send('POST', '/skills', {
            name,
            code,
            kind,
          } satisfies ApiBody<'/skills', 'POST'>)) as Written,
      );
      print(options, skill, () => `Wrote ${formatSkill(skill)}`);
      if (skill.state === 'error') throw new CliError(`${name} was written but did not load`);
    });

  skills
    .command('list')
    .description('installed skills with their state and tools')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { skills: list } = await withGateway(
        ctx,
        async (send) => (await send('GET', '/skills')) as ApiResponse<'/skills'>,
      );
      if (options.json) return out(JSON.stringify(list, null, 2));
      out(list.length === 0 ? 'No skills installed.' : list.map(formatSkill).join('\n'));
    });

  skills
    .command('show <name>')
    .description('one skill with its code')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const skill = await withGateway(
        ctx,
        async (send) => (await send('GET', `/skills/${encodeURIComponent(name)}`)) as WithCode,
      );
      if (options.json) return out(JSON.stringify(skill, null, 2));
      out(
        `${formatSkill(skill)}\nkind ${skill.kind}, version ${show(skill.version)}, origin ${show(skill.origin)}${
          skill.plugin ? ', plugin' : ''
        }\n\n${skill.code.split('\n').map(show).join('\n')}`,
      );
    });

  skills
    .command('delete <name>')
    .description('unload and delete a skill')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      await withGateway(ctx, (send) => send('DELETE', `/skills/${encodeURIComponent(name)}`));
      print(options, { name, deleted: true }, () => `Deleted ${show(name)}.`);
    });

  skills
    .command('quarantine <name>')
    .description('unload a skill but keep its file (writing it again clears this)')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const skill = await withGateway(
        ctx,
        async (send) =>
          (await send('POST', `/skills/${encodeURIComponent(name)}/quarantine`)) as Quarantined,
      );
      print(options, skill, () => `Quarantined ${show(skill.name)}: unloaded, file kept.`);
    });

  skills
    .command('validate <file>')
    .description('check syntax and blocked imports without writing (no gateway needed)')
    .option('--kind <kind>', 'mjs or py (default: from the file name)')
    .option('--json', 'print JSON (also when rejected, then exit 1)')
    .action(async (file: string, options: { kind?: string; json?: boolean }) => {
      const kind = kindOfFile(file, options.kind);
      const code = await readSkillFile(file);
      const { createSkillValidator } = await import('@hearth/gateway/skill-validator');
      const result = await createSkillValidator()(code, kind);
      if (options.json) out(JSON.stringify({ file, ...result }, null, 2));
      if (!result.ok) {
        throw new CliError(
          `${file} is rejected:\n${result.problems
            .map((p) => `  line ${p.line}: ${show(p.construct)}: ${show(p.message)}`)
            .join('\n')}`,
        );
      }
      if (!options.json)
        out(
          `${file} is valid; tools: ${result.tools.map((t) => show(t.name)).join(', ') || '(none)'}`,
        );
    });

  registerReview(skills, ctx);
}
