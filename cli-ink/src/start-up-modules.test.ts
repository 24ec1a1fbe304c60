/**
 * The short commands start fast because they load little: `hearth --help`, `status`, `stop`
 * and `version`, run as real processes, load none of the heavy packages (Ink, React, zod, the
 * MCP SDK) and no gateway beyond a few config helpers; `--help` loads no command module at
 * all (program.ts lists the commands from command-index.ts). A module-resolution hook records
 * every module the process loads.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SOURCE_PATH, freePort } from './testing/cli-harness.ts';

const RECORD_MODULES = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const loaded = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    loaded.add(result.url);
    return result;
  },
});
process.on('exit', () => writeFileSync(process.env.MODULES_OUT, JSON.stringify([...loaded])));
`;

const HEAVY = [
  '/node_modules/ink/',
  '/node_modules/react/',
  '/node_modules/zod/',
  '/node_modules/@modelcontextprotocol/',
  '/gateway/src/gateway.ts',
  '/gateway/src/config/schema',
  '/cli-ink/src/dashboard/',
];

let scratch: string;
let hook: string;
let config: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'hearth-start-up-'));
  hook = join(scratch, 'record-modules.mjs');
  await writeFile(hook, RECORD_MODULES);
  config = join(scratch, 'config.toml');
  await writeFile(config, `[gateway]\nport = ${await freePort()}\n`);
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** The modules `hearth <argv>` loads (the CLI from the sources, on this Node). */
async function modulesOf(argv: readonly string[]): Promise<string[]> {
  const out = join(scratch, 'modules.json');
  await new Promise<void>((resolve) => {
    execFile(
      process.execPath,
      ['--import', hook, CLI_SOURCE_PATH, '-c', config, ...argv],
      { env: { ...process.env, HEARTH_HOME: join(scratch, 'home'), MODULES_OUT: out } },
      () => resolve(),
    );
  });
  return JSON.parse(await readFile(out, 'utf8')) as string[];
}

describe('what the short commands load', () => {
  it.each([['--help'], ['status'], ['stop'], ['version']])(
    'hearth %s loads no heavy module',
    async (command) => {
      const loaded = await modulesOf([command]);
      expect(loaded.some((url) => url.endsWith('/cli-ink/src/program.ts'))).toBe(true);
      expect(loaded.filter((url) => HEAVY.some((part) => url.includes(part)))).toEqual([]);
    },
  );

  it('hearth --help loads no command module, and a command only its own', async () => {
    const commandModules = (loaded: string[]) =>
      loaded.filter((url) => url.includes('/cli-ink/src/commands/'));
    expect(commandModules(await modulesOf(['--help']))).toEqual([]);
    expect(
      commandModules(await modulesOf(['status'])).map((url) => url.replace(/.*\/commands\//, '')),
    ).toEqual(['status.ts', 'format-status.ts']);
  });
});
