/**
 * `hearth start` in the foreground hands its process over to the gateway's own entry point
 * (main.ts; once built, dist/gateway/src/main.js, the bundle) instead of loading the gateway
 * itself: one `process.execve`, same pid, same file descriptors, with the memory set-up of
 * config/runtime-tuning.ts applied on the way. The gateway then starts exactly as `npm start`
 * starts it (the port bound at once, the bundle, the compile cache, the start-up collection),
 * and none of the CLI's modules stays in its memory. Loaded by the CLI, it stays light: nothing
 * here imports more than runtime-tuning.ts and Node's own modules.
 *
 * Without `process.execve` (Windows, an older Node), `hearth start` runs the gateway in its own
 * process as before; `handOverToGateway` returns why.
 */
import { statSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  definedOnly,
  planRuntimeTuning,
  thisProcessTuningInput,
  type TuningInput,
} from '../config/runtime-tuning.ts';

/** The gateway's entry point beside this module: main.ts in the sources, main.js in dist/. */
export const GATEWAY_ENTRY = fileURLToPath(
  new URL(`../main${extname(import.meta.url)}`, import.meta.url),
);

/** What main.ts is run with. */
export interface HandOverPlan {
  file: string;
  /** argv of the new image, argv[0] included. */
  args: string[];
  env: Record<string, string>;
}

/**
 * The `execve` that runs `entry` with `args` in this process: with the tuned memory set-up (the
 * re-execution main.ts would otherwise do itself, so a start costs one new image, not two), or,
 * when there is none to apply (tuned already, turned off, not Linux), as it stands.
 */
export function planHandOver(
  input: Omit<TuningInput, 'argv'>,
  entry: string,
  args: readonly string[],
): HandOverPlan {
  const argv = [input.execPath, entry, ...args];
  const tuning = planRuntimeTuning({ ...input, argv });
  if (tuning.kind === 'relaunch') return tuning;
  return {
    file: input.execPath,
    args: [input.execPath, ...input.execArgv, ...argv.slice(1)],
    env: definedOnly(input.env),
  };
}

/**
 * Replaces this process with the gateway's entry point run with `args` (main.ts's flags). Does not
 * return when it could; otherwise returns why not, and the caller runs the gateway itself.
 */
export function handOverToGateway(args: readonly string[]): string {
  if (typeof process.execve !== 'function') return 'this Node cannot re-execute itself';
  if (statSync(GATEWAY_ENTRY, { throwIfNoEntry: false })?.isFile() !== true)
    return `the gateway's entry point is missing (${GATEWAY_ENTRY})`;
  const plan = planHandOver(thisProcessTuningInput(), GATEWAY_ENTRY, args);
  try {
    process.execve(plan.file, plan.args, plan.env);
  } catch (error) {
    return `re-executing failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  return 'process.execve returned';
}
