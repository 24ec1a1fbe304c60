import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { parseConfig } from '@hearth/gateway';
import type { Command } from 'commander';
import { CliError, errorMessage } from '../../cli-error.ts';
import type { CommandContext } from '../../deps.ts';
import { exists, writeDefaultConfig } from './init.ts';

/**
 * `hearth config edit`: opens $VISUAL/$EDITOR on config.toml (created from the defaults when
 * missing), waits for it, then validates the result.
 */
export function registerConfigEdit(config: Command, ctx: CommandContext): void {
  config
    .command('edit')
    .description('open config.toml in $VISUAL/$EDITOR, then validate it')
    .action(async () => {
      const { output, env } = ctx.deps;
      const path = ctx.configPath();
      if (!(await exists(path))) {
        await writeDefaultConfig(ctx, path);
        output.out(`Created ${path} from the defaults`);
      }

      const code = await runEditor(env.editor, path, { ...env.variables });
      if (code !== 0) throw new CliError(`the editor (${env.editor}) exited with ${code}.`);

      try {
        parseConfig(await readFile(path, 'utf8'), path);
      } catch (error) {
        throw new CliError(`${errorMessage(error)}\nRun 'hearth config edit' again to fix it.`);
      }
      output.out(`${path} is valid`);
    });
}

/**
 * Runs the editor command through the shell, as git does, so `EDITOR="code --wait"` works;
 * the path is passed as an argument, never spliced into the command text.
 */
function runEditor(editor: string, path: string, env: NodeJS.ProcessEnv): Promise<number | string> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', `${editor} "$1"`, editor, path], {
      stdio: 'inherit',
      env,
    });
    child.once('error', (error) =>
      reject(new CliError(`cannot run the editor (${editor}): ${errorMessage(error)}`)),
    );
    child.once('exit', (code, signal) => resolve(code ?? `signal ${signal ?? '?'}`));
  });
}
