/**
 * A process that takes the gateway's first step (config/runtime-tuning.ts) and prints what it
 * then runs with, as one JSON line; runtime-tuning.test.ts spawns it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cachedDataVersionTag } from 'node:v8';
import { applyAfterReady, tuneThisProcess } from '../runtime-tuning.ts';

const report = tuneThisProcess();
/** V8's tag for compiled code it accepts (its version and flag hash), before and after /ready. */
const codeCacheTag = cachedDataVersionTag();
applyAfterReady(report);
const codeCacheTagAfterReady = cachedDataVersionTag();
process.stdout.write(
  `${JSON.stringify({
    pid: process.pid,
    execArgv: process.execArgv,
    report,
    ldPreload: process.env.LD_PRELOAD ?? null,
    mallocArenaMax: process.env.MALLOC_ARENA_MAX ?? null,
    mallocConf: process.env.MALLOC_CONF ?? null,
    /** jemalloc's background thread (MALLOC_CONF background_thread), by its thread name. */
    jemallocThread: readdirSync('/proc/self/task').some((task) =>
      readFileSync(`/proc/self/task/${task}/comm`, 'utf8').startsWith('jemalloc_bg_thd'),
    ),
    marker: process.env.HEARTH_RUNTIME_TUNED ?? null,
    jemallocMapped: readFileSync('/proc/self/maps', 'utf8').includes('libjemalloc'),
    childLdPreload: execFileSync(process.execPath, ['-p', "process.env.LD_PRELOAD ?? 'none'"], {
      encoding: 'utf8',
    }).trim(),
    codeCacheTag,
    codeCacheTagAfterReady,
    /** The same tag in a Node started without flags, as Node's own compiled built-ins expect. */
    plainCodeCacheTag: Number(
      execFileSync(process.execPath, ['-p', "require('node:v8').cachedDataVersionTag()"], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '' },
      }),
    ),
    semiSpaceFlag: process.execArgv.some((flag) => flag.startsWith('--max-semi-space-size')),
    growingFlag: process.execArgv.some((flag) => flag.startsWith('--heap-growing-percent')),
    initialFlag: process.execArgv.some((flag) => flag.startsWith('--initial-old-space-size')),
  })}\n`,
);
