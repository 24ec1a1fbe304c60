import { describe, expect, it } from 'vitest';
import { SEMI_SPACE_MB, TUNED_MARKER, type TuningInput } from '../config/runtime-tuning.ts';
import { GATEWAY_ENTRY, planHandOver } from './hand-over.ts';

const NODE = '/opt/node/bin/node';
const ENTRY = '/app/dist/gateway/src/main.js';
const ARGS = ['--config', '/home/u/.hearth/config.toml', '--announce', '--port', '7432'];

function input(overrides: Partial<Omit<TuningInput, 'argv'>> = {}): Omit<TuningInput, 'argv'> {
  return {
    env: { PATH: '/usr/bin', UNSET: undefined },
    platform: 'linux',
    execPath: NODE,
    execArgv: [],
    canExecve: true,
    isFile: (path) => path === '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
    glibcVersion: () => '2.36',
    ...overrides,
  };
}

describe('planHandOver (hearth start → the gateway entry point, one execve)', () => {
  it('runs the entry point with the tuned memory set-up at once, so main.ts does not re-execute itself again', () => {
    const plan = planHandOver(input({ execArgv: ['--enable-source-maps'] }), ENTRY, ARGS);
    expect(plan.file).toBe(NODE);
    expect(plan.args).toEqual([
      NODE,
      '--enable-source-maps',
      `--max-semi-space-size=${SEMI_SPACE_MB}`,
      ENTRY,
      ...ARGS,
    ]);
    // The marker main.ts's own tuning reads: it keeps this image and restores the environment.
    expect(plan.env[TUNED_MARKER]).toBeDefined();
    expect(plan.env.LD_PRELOAD).toBe('/usr/lib/x86_64-linux-gnu/libjemalloc.so.2');
    expect(plan.env.PATH).toBe('/usr/bin');
  });

  it('without tuning (turned off, not Linux, tuned already) runs the entry point as it stands', () => {
    for (const overrides of [
      { env: { PATH: '/usr/bin', HEARTH_RUNTIME_TUNING: 'off' } },
      { platform: 'darwin' as const, env: { PATH: '/usr/bin' } },
      { env: { PATH: '/usr/bin', [TUNED_MARKER]: '{}' } },
    ]) {
      const plan = planHandOver(input(overrides), ENTRY, ARGS);
      expect(plan).toEqual({ file: NODE, args: [NODE, ENTRY, ...ARGS], env: overrides.env });
    }
  });

  it("leaves out the environment's unset names (execve takes strings only)", () => {
    const plan = planHandOver(input({ env: { A: 'x', B: undefined } }), ENTRY, []);
    expect(Object.keys(plan.env)).not.toContain('B');
    expect(plan.env.A).toBe('x');
  });

  it("the entry point is the gateway's main module beside it", () => {
    expect(GATEWAY_ENTRY).toMatch(/[/\\]gateway[/\\]src[/\\]main\.ts$/);
  });
});
