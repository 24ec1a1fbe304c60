import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  HEAP_GROWING_PERCENT,
  JEMALLOC_CONF,
  JEMALLOC_PATHS,
  planRuntimeTuning,
  restoreEnvironment,
  SEMI_SPACE_MB,
  TUNED_MARKER,
  type TuningInput,
} from './runtime-tuning.ts';

const JEMALLOC = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
const SEMI = `--max-semi-space-size=${SEMI_SPACE_MB}`;
const GROWING = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
const HEAP_REPORT =
  'young generation 8 MB semi-spaces; old generation grows 50 % past live data from /ready on';

function input(overrides: Partial<TuningInput> & { files?: string[] } = {}): TuningInput {
  const files = new Set(overrides.files ?? [JEMALLOC]);
  return {
    env: { PATH: '/usr/bin' },
    platform: 'linux',
    execPath: '/opt/node/bin/node',
    execArgv: [],
    argv: ['/opt/node/bin/node', '/app/dist/gateway/src/main.js', '--port', '7432'],
    canExecve: true,
    isFile: (path) => files.has(path),
    glibcVersion: () => '2.36',
    ...overrides,
  };
}

function relaunch(plan: ReturnType<typeof planRuntimeTuning>) {
  if (plan.kind !== 'relaunch') throw new Error(`expected a relaunch, got ${JSON.stringify(plan)}`);
  const marker = JSON.parse(plan.env[TUNED_MARKER] ?? 'null') as {
    report: { allocator: string; heap: string; afterReady?: string[] };
    restore: Record<string, string | null>;
  };
  return { ...plan, marker };
}

describe('planRuntimeTuning', () => {
  it('re-executes Node with jemalloc preloaded and 8 MB semi-spaces, keeping every argument; the old-generation growth is left for /ready', () => {
    const plan = relaunch(planRuntimeTuning(input({ execArgv: ['--import', '/x.mjs'] })));
    expect(plan.file).toBe('/opt/node/bin/node');
    expect(plan.args).toEqual([
      '/opt/node/bin/node',
      '--import',
      '/x.mjs',
      SEMI,
      '/app/dist/gateway/src/main.js',
      '--port',
      '7432',
    ]);
    expect(plan.env).toMatchObject({
      PATH: '/usr/bin',
      LD_PRELOAD: JEMALLOC,
      MALLOC_CONF: JEMALLOC_CONF,
    });
    expect(plan.env.MALLOC_ARENA_MAX).toBeUndefined();
    expect(plan.marker).toEqual({
      report: { allocator: `jemalloc (${JEMALLOC})`, heap: HEAP_REPORT, afterReady: [GROWING] },
      restore: { LD_PRELOAD: null, MALLOC_CONF: null },
    });
  });

  it("keeps the user's MALLOC_CONF", () => {
    const plan = relaunch(planRuntimeTuning(input({ env: { MALLOC_CONF: 'narenas:2' } })));
    expect(plan.env.MALLOC_CONF).toBe('narenas:2');
    expect(plan.marker.restore).toEqual({ LD_PRELOAD: null });
  });

  it('asks for the glibc version only when no jemalloc is found (the probe is a diagnostic report)', () => {
    let asked = 0;
    const glibcVersion = () => {
      asked += 1;
      return '2.36';
    };
    planRuntimeTuning(input({ glibcVersion }));
    expect(asked).toBe(0);
    planRuntimeTuning(input({ files: [], glibcVersion }));
    expect(asked).toBe(1);
  });

  it('puts jemalloc in front of an existing LD_PRELOAD and remembers the old value', () => {
    const plan = relaunch(planRuntimeTuning(input({ env: { LD_PRELOAD: '/lib/other.so' } })));
    expect(plan.env.LD_PRELOAD).toBe(`${JEMALLOC} /lib/other.so`);
    expect(plan.marker.restore).toEqual({ LD_PRELOAD: '/lib/other.so', MALLOC_CONF: null });
  });

  it('falls back to one glibc arena and a fixed mmap threshold when no jemalloc is installed', () => {
    const plan = relaunch(planRuntimeTuning(input({ files: [] })));
    expect(plan.env).toMatchObject({ MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '32768' });
    expect(plan.env.LD_PRELOAD).toBeUndefined();
    expect(plan.marker.report.allocator).toBe(
      'glibc 2.36, one malloc arena, mmap threshold 32 KiB (jemalloc not found)',
    );
    expect(plan.marker.restore).toEqual({ MALLOC_ARENA_MAX: null, MALLOC_MMAP_THRESHOLD_: null });
  });

  it.each([
    ['glibc', undefined],
    ['system', undefined],
    ['/srv/lib/libjemalloc.so.2', '/srv/lib/libjemalloc.so.2'],
    ['/missing/libjemalloc.so.2', undefined],
  ])('HEARTH_ALLOCATOR=%s chooses the allocator', (choice, preload) => {
    const plan = relaunch(
      planRuntimeTuning(
        input({
          env: { HEARTH_ALLOCATOR: choice },
          files: [JEMALLOC, '/srv/lib/libjemalloc.so.2'],
        }),
      ),
    );
    expect(plan.env.LD_PRELOAD).toBe(preload);
    expect(plan.env.MALLOC_ARENA_MAX).toBe(preload === undefined ? '1' : undefined);
    expect(plan.env.MALLOC_MMAP_THRESHOLD_).toBe(preload === undefined ? '32768' : undefined);
  });

  it("leaves the user's malloc settings alone and still sizes the young generation", () => {
    for (const env of [
      { MALLOC_ARENA_MAX: '4' },
      { MALLOC_MMAP_THRESHOLD_: '65536' },
      { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' },
    ]) {
      const plan = relaunch(planRuntimeTuning(input({ env, files: [] })));
      expect(plan.env.MALLOC_ARENA_MAX).toBe(env.MALLOC_ARENA_MAX);
      expect(plan.env.MALLOC_MMAP_THRESHOLD_).toBe(env.MALLOC_MMAP_THRESHOLD_);
      expect(plan.args).toContain(SEMI);
      expect(plan.marker.report.allocator).toMatch(/malloc settings from the environment/);
      expect(plan.marker.restore).toEqual({});
    }
  });

  it('reports a jemalloc the user preloaded without preloading it twice', () => {
    const plan = relaunch(planRuntimeTuning(input({ env: { LD_PRELOAD: JEMALLOC } })));
    expect(plan.env.LD_PRELOAD).toBe(JEMALLOC);
    expect(plan.marker.report.allocator).toBe('jemalloc (LD_PRELOAD from the environment)');
  });

  it("keeps the user's semi-space flag, from the command line or NODE_OPTIONS", () => {
    const fromArgv = relaunch(planRuntimeTuning(input({ execArgv: ['--max-semi-space-size=8'] })));
    expect(fromArgv.args.filter((arg) => arg.includes('semi-space'))).toEqual([
      '--max-semi-space-size=8',
    ]);
    // The growth is still ours, once ready.
    expect(fromArgv.marker.report.afterReady).toEqual([GROWING]);
    expect(fromArgv.marker.report.heap).toBe(
      'old generation grows 50 % past live data from /ready on; ' +
        'from the command line: --max-semi-space-size=8',
    );
    // Nothing left to change: no relaunch at all.
    const plan = planRuntimeTuning(
      input({
        env: { NODE_OPTIONS: '--max_semi_space_size=4', MALLOC_ARENA_MAX: '2' },
        execArgv: ['--heap_growing_percent=30', '--initial_heap_size=64'],
        files: [],
      }),
    );
    expect(plan.kind).toBe('keep');
  });

  it("keeps the user's old-generation growth flag and adds the semi-space one", () => {
    const plan = relaunch(
      planRuntimeTuning(input({ execArgv: ['--heap-growing-percent=100'], files: [] })),
    );
    expect(plan.args.filter((arg) => /growing/.test(arg))).toEqual(['--heap-growing-percent=100']);
    expect(plan.args).toContain(SEMI);
    expect(plan.marker.report.afterReady).toBeUndefined();
    expect(plan.marker.report.heap).toBe(
      'young generation 8 MB semi-spaces; from the command line: --heap-growing-percent=100',
    );
  });

  it("keeps the user's initial heap flag and adds the others", () => {
    const plan = relaunch(
      planRuntimeTuning(input({ execArgv: ['--initial-old-space-size=128'], files: [] })),
    );
    expect(plan.args.filter((arg) => /initial/.test(arg))).toEqual([
      '--initial-old-space-size=128',
    ]);
    expect(plan.args).toContain(SEMI);
    expect(plan.marker.report.afterReady).toEqual([GROWING]);
    expect(plan.marker.report.heap).toBe(
      `${HEAP_REPORT}; from the command line: --initial-old-space-size=128`,
    );
  });

  it("passes no flag that changes V8's flag hash on the command line (Node's compiled built-ins would be refused)", () => {
    const plan = relaunch(planRuntimeTuning(input()));
    const added = plan.args.slice(1, -3);
    expect(added).toEqual([SEMI]);
  });

  it('sets nothing once ready when the marker asks for a flag it may not set', () => {
    const forged = JSON.stringify({
      report: { allocator: 'x', heap: 'y', afterReady: ['--allow-natives-syntax'] },
      restore: {},
    });
    const plan = planRuntimeTuning(input({ env: { [TUNED_MARKER]: forged } }));
    expect(plan).toEqual({
      kind: 'keep',
      report: { allocator: 'unknown (unreadable tuning marker)', heap: 'Node defaults' },
    });
  });

  it.each([
    [{ env: { HEARTH_RUNTIME_TUNING: 'off' } }, 'system (HEARTH_RUNTIME_TUNING=off)'],
    [{ canExecve: false }, 'system (this Node cannot re-execute itself)'],
    [{ platform: 'darwin' as const }, 'system (no tuning for darwin)'],
    [{ files: [], glibcVersion: () => undefined }, 'system (jemalloc not found; not glibc)'],
  ])('does not re-execute when %o', (overrides, allocator) => {
    expect(planRuntimeTuning(input(overrides))).toEqual({
      kind: 'keep',
      report: { allocator, heap: 'Node defaults' },
    });
  });

  it('never re-executes twice: the marker carries the report', () => {
    const first = relaunch(planRuntimeTuning(input()));
    const second = planRuntimeTuning(input({ env: first.env }));
    expect(second).toEqual({ kind: 'keep', report: first.marker.report });
  });
});

describe('restoreEnvironment', () => {
  it('puts back what the relaunch changed and drops the marker', () => {
    const plan = relaunch(planRuntimeTuning(input({ env: { LD_PRELOAD: '/lib/other.so' } })));
    const env: Record<string, string | undefined> = { ...plan.env };
    restoreEnvironment(env);
    expect(env).toEqual({ LD_PRELOAD: '/lib/other.so' });

    const glibc = relaunch(planRuntimeTuning(input({ files: [] })));
    const env2: Record<string, string | undefined> = { ...glibc.env };
    restoreEnvironment(env2);
    expect(env2).toEqual({ PATH: '/usr/bin' });
  });

  it('ignores an unreadable marker', () => {
    const env: Record<string, string | undefined> = { [TUNED_MARKER]: '{nope', A: '1' };
    restoreEnvironment(env);
    expect(env).toEqual({ A: '1' });
  });
});

const tunedProcess = fileURLToPath(new URL('./testing/tuned-process.ts', import.meta.url));

async function spawnTuned(env: Record<string, string>) {
  const child = execFile(process.execPath, [tunedProcess], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  const pid = child.pid;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stdout = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`exited with ${code}`)),
    );
  });
  return { pid, seen: JSON.parse(stdout) as Record<string, unknown>, stderr };
}

describe.runIf(process.platform === 'linux' && typeof process.execve === 'function')(
  'a real re-executed process',
  () => {
    const jemalloc = JEMALLOC_PATHS.find((path) => existsSync(path));

    it.runIf(jemalloc !== undefined)(
      'keeps its pid, runs on jemalloc with the heap flags, and hides both from children',
      async () => {
        const { pid, seen, stderr } = await spawnTuned({});
        // jemalloc accepted every MALLOC_CONF option (it says "Invalid conf pair" otherwise).
        expect(stderr).toBe('');
        expect(seen).toMatchObject({
          pid,
          jemallocMapped: true,
          semiSpaceFlag: true,
          growingFlag: false,
          initialFlag: false,
          ldPreload: null,
          mallocConf: null,
          jemallocThread: true,
          marker: null,
          report: { allocator: `jemalloc (${jemalloc})` },
        });
        // What a child of the tuned process sees: the user's environment, no jemalloc.
        expect(seen.childLdPreload).toBe('none');
        // Until /ready, V8 takes compiled code made under Node's own flags (its built-ins);
        // the growth flag set once ready changes that, as the flag does.
        expect(seen.codeCacheTag).toBe(seen.plainCodeCacheTag);
        expect(seen.codeCacheTagAfterReady).not.toBe(seen.codeCacheTag);
      },
    );

    it('uses one glibc arena when told not to preload jemalloc', async () => {
      const { pid, seen } = await spawnTuned({ HEARTH_ALLOCATOR: 'glibc' });
      expect(seen).toMatchObject({
        pid,
        jemallocMapped: false,
        semiSpaceFlag: true,
        mallocArenaMax: null,
        report: { allocator: expect.stringMatching(/^glibc .*one malloc arena/) },
      });
    });

    it(
      'keeps the old space within 3 times its live data under churn (V8 alone goes past 3.5 times)',
      { timeout: 60_000 },
      async () => {
        const churn = fileURLToPath(new URL('./testing/tuned-churn.ts', import.meta.url));
        type Figures = {
          execArgv: string[];
          afterReady: string[];
          peakOldSpace: number;
          minHeapUsed: number;
        };
        const run = (flags: string[]) =>
          new Promise<Figures>((resolve, reject) =>
            execFile(
              process.execPath,
              [...flags, churn],
              { env: { PATH: process.env.PATH ?? '' } },
              (error, stdout) => {
                if (error) reject(new Error(error.message));
                else resolve(JSON.parse(stdout) as Figures);
              },
            ),
          );
        const tuned = await run([]);
        expect(tuned.afterReady).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
        expect(tuned.peakOldSpace).toBeLessThan(3 * tuned.minHeapUsed);
        // The same load with V8's own growth (0: its default) and our semi-spaces, as before
        // the growth flag: the peaks RSS used to ratchet on.
        const before = await run([SEMI, '--heap-growing-percent=0']);
        expect(before.execArgv).toEqual([SEMI, '--heap-growing-percent=0']);
        expect(before.afterReady).toEqual([]);
        expect(before.peakOldSpace).toBeGreaterThan(3.5 * before.minHeapUsed);
      },
    );

    it('runs untouched with HEARTH_RUNTIME_TUNING=off', async () => {
      const { seen } = await spawnTuned({ HEARTH_RUNTIME_TUNING: 'off' });
      expect(seen).toMatchObject({
        jemallocMapped: false,
        semiSpaceFlag: false,
        growingFlag: false,
        initialFlag: false,
        report: { allocator: 'system (HEARTH_RUNTIME_TUNING=off)', heap: 'Node defaults' },
      });
    });
  },
);
