/**
 * The build's resolution check, on a small tree in a temp folder shaped like the repository:
 * the root holds ipaddr.js 1.9.1 (hoisted for another package), the gateway workspace declares
 * ^2.5.0 and has 2.5.0 nested in gateway/node_modules, and dist/ holds the compiled files.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkResolution, describeProblem, type ResolutionCheck } from './check-resolution.ts';

let root: string;

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
}

async function pkg(folder: string, name: string, version: string): Promise<void> {
  await write(`${folder}/package.json`, JSON.stringify({ name, version }));
}

async function link(target: string, path: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await symlink(target, join(root, path), 'dir');
}

function check(): ResolutionCheck {
  return {
    root,
    outputRoot: 'dist',
    ownScope: '@hearth/',
    workspaces: [
      { output: 'dist/gateway', manifest: 'gateway/package.json' },
      { output: 'dist/cli-ink', manifest: 'cli-ink/package.json' },
    ],
  };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-resolution-'));
  await pkg('node_modules/ipaddr.js', 'ipaddr.js', '1.9.1');
  await pkg('node_modules/pino', 'pino', '10.4.0');
  await pkg('gateway/node_modules/ipaddr.js', 'ipaddr.js', '2.5.0');
  await write(
    'gateway/package.json',
    JSON.stringify({
      name: '@hearth/gateway',
      version: '0.1.0',
      dependencies: { 'ipaddr.js': '^2.5.0', pino: '^10.4.0' },
      optionalDependencies: { 'not-installed': '^1.0.0' },
    }),
  );
  await write(
    'cli-ink/package.json',
    JSON.stringify({ name: '@hearth/cli', dependencies: { '@hearth/gateway': '^0.1.0' } }),
  );
  await pkg('dist/gateway', '@hearth/gateway', '0.1.0');
  await write(
    'dist/gateway/src/hub/address-policy.js',
    [
      "import ipaddr from 'ipaddr.js';",
      "import { readFile } from 'node:fs/promises';",
      "import { join } from 'path';",
      "import { helper } from './helper.js';",
      "export { default as pino } from 'pino';",
      "const optional = await import('not-installed').catch(() => undefined);",
      "// import nothing from 'in-a-comment';",
      'const text = "import(\'in-a-string\')";',
    ].join('\n'),
  );
  await write('dist/cli-ink/src/main.js', "import { run } from '@hearth/gateway/run';\n");
  // The CLI's compiled gateway, as scripts/build.ts links it; the root link is the sources'.
  await link('../../gateway', 'dist/node_modules/@hearth/gateway');
  await link('../../gateway', 'node_modules/@hearth/gateway');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the resolution check of the compiled workspaces', () => {
  it('fails a compiled import that finds the root copy outside the declared range', async () => {
    const problems = await checkResolution(check());
    expect(problems).toEqual([
      {
        file: 'dist/gateway/src/hub/address-policy.js',
        specifier: 'ipaddr.js',
        found: '1.9.1 (node_modules/ipaddr.js)',
        declared: '^2.5.0',
      },
    ]);
    expect(problems.map(describeProblem)).toEqual([
      "dist/gateway/src/hub/address-policy.js: 'ipaddr.js' finds 1.9.1 (node_modules/ipaddr.js); declared ^2.5.0",
    ]);
  });

  it("passes once dist/gateway/node_modules links to the workspace's own packages", async () => {
    await link('../../gateway/node_modules', 'dist/gateway/node_modules');
    expect(await checkResolution(check())).toEqual([]);
  });

  it('checks string-literal dynamic imports too', async () => {
    await link('../../gateway/node_modules', 'dist/gateway/node_modules');
    await write(
      'dist/gateway/src/late.js',
      "export const load = () => import('ipaddr.js/lib/x.js');",
    );
    await pkg('gateway/node_modules/ipaddr.js', 'ipaddr.js', '3.0.0');
    const problems = await checkResolution(check());
    expect(problems.map((p) => [p.file, p.specifier, p.found])).toEqual([
      [
        'dist/gateway/src/hub/address-policy.js',
        'ipaddr.js',
        '3.0.0 (gateway/node_modules/ipaddr.js)',
      ],
      ['dist/gateway/src/late.js', 'ipaddr.js/lib/x.js', '3.0.0 (gateway/node_modules/ipaddr.js)'],
    ]);
  });

  it('fails an import the workspace does not declare', async () => {
    await link('../../gateway/node_modules', 'dist/gateway/node_modules');
    await write('dist/gateway/src/extra.js', "import express from 'pino-undeclared';");
    const problems = await checkResolution(check());
    expect(problems).toEqual([
      {
        file: 'dist/gateway/src/extra.js',
        specifier: 'pino-undeclared',
        found: 'no package',
        declared: 'nowhere (not a dependency)',
      },
    ]);
  });

  it('fails a workspace package that resolves to the sources instead of dist/', async () => {
    await link('../../gateway/node_modules', 'dist/gateway/node_modules');
    await rm(join(root, 'dist/node_modules'), { recursive: true });
    const problems = await checkResolution(check());
    expect(problems).toEqual([
      {
        file: 'dist/cli-ink/src/main.js',
        specifier: '@hearth/gateway/run',
        found: '0.1.0 (gateway, outside dist/)',
        declared: '^0.1.0, compiled in dist/',
      },
    ]);
  });
});
