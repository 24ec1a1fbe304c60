/**
 * scripts/features.js, behind `hearth features`: the list, and `add` refusing anything but a
 * known feature name before npm is ever run (names reach npm only as the pinned specs).
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'features.js');

function features(...args: string[]) {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], {
    encoding: 'utf8',
    // A PATH without npm: a refused name must never get as far as running it.
    env: { ...process.env, PATH: '/nonexistent' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('scripts/features.js', () => {
  it('lists every feature as on, or off with the command that adds it', () => {
    const { code, stdout } = features();
    expect(code).toBe(0);
    for (const name of ['embeddings', 'voice', 'browser', 'discord', 'slack', 'matrix']) {
      expect(stdout).toMatch(
        new RegExp(`^${name}\\s+(on|off \\(hearth features add ${name}; needs .+\\))$`, 'm'),
      );
    }
  });

  it('with --json prints one document: each feature on or off, and what is missing', () => {
    const { code, stdout } = features('list', '--json');
    expect(code).toBe(0);
    const { features: states } = JSON.parse(stdout) as {
      features: Record<string, { on: boolean; missing: string[]; summary: string }>;
    };
    expect(Object.keys(states)).toEqual([
      'embeddings',
      'voice',
      'browser',
      'discord',
      'slack',
      'matrix',
    ]);
    for (const state of Object.values(states)) expect(state.on).toBe(state.missing.length === 0);
  });

  it.each([
    ['bogus'],
    ['../../etc/passwd'],
    ['voice@latest'],
    ['--registry=http://evil.example'],
    ['__proto__'],
    ['toString'],
  ])('add refuses %s with exit 2 and the list of features, running nothing', (name) => {
    const { code, stderr } = features('add', name);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown feature');
    expect(stderr).toContain('features: embeddings, voice, browser, discord, slack, matrix');
  });

  it('add without a name is a usage error', () => {
    const { code, stderr } = features('add');
    expect(code).toBe(2);
    expect(stderr).toContain('features: embeddings, voice');
  });

  it('an unknown command is a usage error', () => {
    expect(features('remove', 'voice').code).toBe(2);
  });
});
