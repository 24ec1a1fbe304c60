/**
 * Memory tuning of the gateway process. Two things keep a busy Node process far above its
 * live data, both measured with `npm run bench:chat` (10,000 turns):
 * - glibc malloc keeps freed memory in per-thread arenas and a fragmented main heap: ~100 MB
 *   more than at start once the JS heap has shrunk back (jemalloc returns it; one glibc arena
 *   with a 32 KiB mmap threshold keeps much less);
 * - V8 sizes the young generation from the machine's memory (up to 2 × 64 MB semi-spaces on a
 *   24 GiB host), which fills with short-lived request garbage;
 * - V8 lets the old generation grow to up to 4 × its live data before a full collection when
 *   the heap limit is large (it is, from the host's memory), and keeps the pages it frees in a
 *   pool, resident, until a memory-reducing collection that only comes when the process idles.
 *   A gateway under steady traffic never idles: its RSS was the high-water mark of its heap,
 *   which each new peak raised (the hour's soak: V8 pages 347 MB resident with 120–290 MB of
 *   heap in use, RSS +60 MB in 6 minutes with live data flat). A fixed growing factor (1.5)
 *   bounds the peaks by the live data, so RSS follows the live data instead of ratcheting up.
 * Allocator settings are read by the C library when a process starts, and semi-space size when
 * V8 creates its heap, so both take a fresh process image: at start, main.ts re-executes Node
 * once with them (`process.execve`: same pid, same file descriptors, ~40 ms) and restores the
 * environment afterwards, so tool and shell children do not inherit them.
 *
 * The old generation's growth is set once the gateway is ready (`afterReady`, applied by
 * main.ts), not on the command line: V8 accepts code compiled under other flags only when its
 * flags hash the same, and `--heap-growing-percent` (like `--initial-old-space-size`) changes
 * that hash, so Node's own compiled code for its built-in modules, shipped inside the binary,
 * was refused and every built-in module the gateway loads was compiled from source at each
 * start (~10 % of the instructions to /ready; `--max-semi-space-size` leaves the hash as it
 * is). V8 reads the growth each time it sets a new limit, so from /ready on it applies as a
 * flag given at start would; until then V8's own growth lets loading run without a full
 * collection.
 *
 * main.ts adds one memory-reducing collection once the gateway is ready
 * (lifecycle/start-up-garbage.ts).
 *
 * Opt out with HEARTH_RUNTIME_TUNING=off (all of it); HEARTH_ALLOCATOR=glibc skips jemalloc, and
 * HEARTH_ALLOCATOR=/path/libjemalloc.so.2 names the library. Flags the user passes
 * (command line or NODE_OPTIONS) win over ours. What is in effect shows in /api/v1/status
 * under `backends.allocator` and `backends.heap`.
 */

// Not an ESM import: node:fs's ESM namespace runs its lazy getters (ReadStream…), ~30 internal
// modules and ~10 ms of CPU in the first image, which only re-executes itself (main.ts).
const { statSync } = process.getBuiltinModule('node:fs');

/** Set on the re-executed process: what was applied and the values to restore. */
export const TUNED_MARKER = 'HEARTH_RUNTIME_TUNED';

/**
 * Young-generation semi-space in MB (V8 default here: up to 64). At 2 MB, the objects of the
 * turns in flight outlived the young generation's collections and filled the old one with
 * garbage that only full collections freed: at 8 MB, `npm run bench:chat` (8 clients) ran
 * 600 against 425 turns a second, at 1.8 against 2.6 ms of gateway CPU a turn, with the same
 * RSS 15 s after 14,770 turns (108 MB), a lower peak (160 against 191 MB) and the same idle
 * RSS (87 MB). 4 and 16 MB did less well.
 */
export const SEMI_SPACE_MB = 8;

/**
 * How far past its live data the old generation may grow before a full collection, percent
 * (V8 default: a factor between 1.1 and 4 from its own speed estimates, 4 under steady load).
 */
export const HEAP_GROWING_PERCENT = 50;

/** Where distributions install jemalloc (Debian/Ubuntu multiarch, Fedora/RHEL, Alpine, local). */
export const JEMALLOC_PATHS: readonly string[] = [
  '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
  '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2',
  '/usr/lib64/libjemalloc.so.2',
  '/usr/lib/libjemalloc.so.2',
  '/usr/local/lib/libjemalloc.so.2',
];

/** What /status reports about the process's memory set-up. */
export interface RuntimeReport {
  allocator: string;
  heap: string;
  /** Where Node's compile cache is kept, or why it is off (config/compile-cache.ts). */
  compileCache?: string;
  /** V8 flags for main.ts to set once the gateway is ready (applyAfterReady); not reported. */
  afterReady?: readonly string[];
}

export interface TuningInput {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  execPath: string;
  execArgv: readonly string[];
  /** process.argv: [execPath, script, ...arguments]. */
  argv: readonly string[];
  /** Whether process.execve exists (Node ≥ 22.15 / 23.11, not on Windows). */
  canExecve: boolean;
  isFile(path: string): boolean;
  /** The glibc version the process runs on, undefined for musl and other C libraries. */
  glibcVersion(): string | undefined;
}

export type TuningPlan =
  | { kind: 'relaunch'; file: string; args: string[]; env: Record<string, string> }
  | { kind: 'keep'; report: RuntimeReport };

interface Marker {
  report: RuntimeReport;
  /** Variables the relaunch set: their previous values, null when they were unset. */
  restore: Record<string, string | null>;
}

const NODE_DEFAULTS = 'Node defaults';

/** The only flags a marker may ask to set once ready: it comes through the environment. */
const AFTER_READY_FLAG = /^--heap-growing-percent=\d{1,3}$/;

/**
 * glibc without jemalloc: one arena instead of one per thread (V8's workers each grow their
 * own), and blocks of 32 KiB and more (libuv's 64 KiB socket read buffers among them) in their
 * own mappings, returned at free() instead of fragmenting the heap. Settled RSS after the
 * 10,000-turn bench: ~200 MB → ~140 MB.
 */
const GLIBC_SETTINGS = { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '32768' } as const;

/**
 * jemalloc returns freed pages only while the process allocates (its default decay, 10 s, is
 * applied on allocation), so the pages start-up freed stayed resident in an idle gateway. A
 * background thread purges them on time, after 1 s: idle RSS 10 s after /ready 112–113 MB →
 * 107–108 MB (`npm run bench:start`, default config). Then, for an idle RSS 4–5 MB lower
 * (98.5 → 94.3 MB here): thread caches that keep blocks of up to 1 KiB (default 32 KiB: each of
 * the process's ~12 threads kept its own store of larger blocks, ~3.5 MB in all), one arena
 * and one background thread instead of one each per CPU (~1 MB), and pages given back at once
 * when their decay is over (muzzy_decay_ms:0). A MALLOC_CONF of the user's wins.
 */
export const JEMALLOC_CONF =
  'background_thread:true,max_background_threads:1,narenas:1,' +
  'dirty_decay_ms:1000,muzzy_decay_ms:0,tcache_max:1024';

function userMallocSettings(env: Readonly<Record<string, string | undefined>>): boolean {
  return (
    Object.keys(GLIBC_SETTINGS).some((name) => env[name] !== undefined) ||
    /glibc\.malloc\./.test(env.GLIBC_TUNABLES ?? '')
  );
}

/** Whether the user turned the tuning off (HEARTH_RUNTIME_TUNING=off). */
export function runtimeTuningOff(env: Readonly<Record<string, string | undefined>>): boolean {
  return /^(off|0|false|no)$/i.test(env.HEARTH_RUNTIME_TUNING ?? '');
}

/** Decides, at start, whether to re-execute the process with the tuned set-up. */
export function planRuntimeTuning(input: TuningInput): TuningPlan {
  const { env } = input;
  const userHeap = userHeapFlags(input.execArgv, env.NODE_OPTIONS);
  const untuned = (why: string): TuningPlan => ({
    kind: 'keep',
    report: { allocator: `system (${why})`, heap: userHeap.given ?? NODE_DEFAULTS },
  });
  if (env[TUNED_MARKER] !== undefined) return { kind: 'keep', report: tunedReport(env) };
  if (runtimeTuningOff(env)) return untuned('HEARTH_RUNTIME_TUNING=off');
  if (!input.canExecve) return untuned('this Node cannot re-execute itself');
  if (input.platform !== 'linux') return untuned(`no tuning for ${input.platform}`);

  const changes: Record<string, string> = {};
  let allocator: string;
  const jemalloc = findJemalloc(input);
  // Asked only without jemalloc: the probe (a diagnostic report) costs ~6 ms of CPU.
  const glibc = jemalloc === undefined ? input.glibcVersion() : undefined;
  if (/libjemalloc/.test(env.LD_PRELOAD ?? '')) {
    allocator = 'jemalloc (LD_PRELOAD from the environment)';
  } else if (jemalloc !== undefined) {
    changes.LD_PRELOAD = env.LD_PRELOAD ? `${jemalloc} ${env.LD_PRELOAD}` : jemalloc;
    allocator = `jemalloc (${jemalloc})`;
    if (env.MALLOC_CONF === undefined) changes.MALLOC_CONF = JEMALLOC_CONF;
  } else if (glibc === undefined) {
    return untuned('jemalloc not found; not glibc');
  } else if (userMallocSettings(env)) {
    allocator = `glibc ${glibc} (malloc settings from the environment; jemalloc not found)`;
  } else {
    Object.assign(changes, GLIBC_SETTINGS);
    allocator = `glibc ${glibc}, one malloc arena, mmap threshold 32 KiB (jemalloc not found)`;
  }

  const heapFlags: string[] = [];
  const heapParts: string[] = [];
  if (userHeap.semiSpace === undefined) {
    heapFlags.push(`--max-semi-space-size=${SEMI_SPACE_MB}`);
    heapParts.push(`young generation ${SEMI_SPACE_MB} MB semi-spaces`);
  }
  const afterReady: string[] = [];
  if (userHeap.growing === undefined) {
    afterReady.push(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    heapParts.push(`old generation grows ${HEAP_GROWING_PERCENT} % past live data from /ready on`);
  }
  if (userHeap.given !== undefined) heapParts.push(userHeap.given);
  const report: RuntimeReport = {
    allocator,
    heap: heapParts.join('; '),
    ...(afterReady.length > 0 ? { afterReady } : {}),
  };
  if (heapFlags.length === 0 && Object.keys(changes).length === 0) return { kind: 'keep', report };
  const restore = Object.fromEntries(Object.keys(changes).map((name) => [name, env[name] ?? null]));
  const marker: Marker = { report, restore };
  return {
    kind: 'relaunch',
    file: input.execPath,
    args: [input.execPath, ...input.execArgv, ...heapFlags, ...input.argv.slice(1)],
    env: {
      ...definedOnly(env),
      ...changes,
      [TUNED_MARKER]: JSON.stringify(marker),
    },
  };
}

/**
 * In the re-executed process: puts back the variables the relaunch changed and removes the
 * marker, so children (shell, browser, terminal) get the user's environment.
 */
export function restoreEnvironment(env: Record<string, string | undefined>): void {
  const marker = parseMarker(env[TUNED_MARKER]);
  delete env[TUNED_MARKER];
  if (marker === undefined) return;
  for (const [name, value] of Object.entries(marker.restore)) {
    if (value === null) delete env[name];
    else env[name] = value;
  }
}

function tunedReport(env: Readonly<Record<string, string | undefined>>): RuntimeReport {
  return (
    parseMarker(env[TUNED_MARKER])?.report ?? {
      allocator: 'unknown (unreadable tuning marker)',
      heap: NODE_DEFAULTS,
    }
  );
}

function parseMarker(text: string | undefined): Marker | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<Marker>;
    const report = value.report;
    if (
      typeof report?.allocator !== 'string' ||
      typeof report.heap !== 'string' ||
      typeof value.restore !== 'object' ||
      value.restore === null
    )
      return undefined;
    const afterReady: unknown = report.afterReady;
    if (
      afterReady !== undefined &&
      !(
        Array.isArray(afterReady) &&
        afterReady.every((flag) => typeof flag === 'string' && AFTER_READY_FLAG.test(flag))
      )
    )
      return undefined;
    return { report, restore: value.restore };
  } catch {
    return undefined;
  }
}

function findJemalloc(input: TuningInput): string | undefined {
  const choice = input.env.HEARTH_ALLOCATOR?.trim() ?? '';
  if (/^(glibc|system|malloc)$/i.test(choice)) return undefined;
  if (choice.startsWith('/')) return input.isFile(choice) ? choice : undefined;
  return JEMALLOC_PATHS.find((path) => input.isFile(path));
}

/**
 * The heap flags the user already gave (command line or NODE_OPTIONS): each one replaces ours
 * (`given` says them all, for the report).
 */
function userHeapFlags(execArgv: readonly string[], nodeOptions: string | undefined) {
  const flags = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)];
  const semiSpace = flags.filter((flag) => /^--(max|min)[-_]semi[-_]space[-_]size/.test(flag));
  const growing = flags.filter((flag) => /^--heap[-_]growing[-_]percent/.test(flag));
  const initial = flags.filter((flag) => /^--initial[-_](old[-_]space|heap)[-_]size/.test(flag));
  const given = [...semiSpace, ...growing, ...initial];
  return {
    semiSpace: semiSpace.length > 0 ? semiSpace : undefined,
    growing: growing.length > 0 ? growing : undefined,
    given: given.length > 0 ? `from the command line: ${given.join(' ')}` : undefined,
  };
}

/** The environment as `execve` takes it: the names that have a value. */
export function definedOnly(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}

/** planRuntimeTuning's input for this process. */
export function thisProcessTuningInput(): TuningInput {
  return {
    env: process.env,
    platform: process.platform,
    execPath: process.execPath,
    execArgv: process.execArgv,
    argv: process.argv,
    canExecve: typeof process.execve === 'function',
    isFile: (path) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false,
    glibcVersion: () => {
      const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
      return report.header?.glibcVersionRuntime;
    },
  };
}

/**
 * main.ts's first step: re-executes this process with the tuned set-up (does not return
 * then), or restores the environment a relaunch changed and says what is in effect.
 */
export function tuneThisProcess(): RuntimeReport {
  const plan = planRuntimeTuning(thisProcessTuningInput());
  if (plan.kind === 'keep' || process.execve === undefined) {
    restoreEnvironment(process.env);
    return plan.kind === 'keep' ? plan.report : { allocator: 'system', heap: NODE_DEFAULTS };
  }
  try {
    process.execve(plan.file, plan.args, plan.env);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { allocator: `system (re-executing failed: ${why})`, heap: NODE_DEFAULTS };
  }
  throw new Error('process.execve returned');
}

/**
 * main.ts, once the gateway is ready: sets the V8 flags the tuning left for then (see the top:
 * set at start, they made V8 refuse Node's compiled built-in modules).
 */
export function applyAfterReady(report: RuntimeReport): void {
  const flags = report.afterReady ?? [];
  if (flags.length > 0) process.getBuiltinModule('node:v8').setFlagsFromString(flags.join(' '));
}
