/**
 * The memory-reducing collection after start-up (start-up-garbage.ts), in a process of its own
 * (V8's flags are per process): garbage is collected and the freed pages leave the process's
 * RSS, and no `gc` global is left behind, in the gateway's context or in a later one.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const MODULE = new URL('./start-up-garbage.ts', import.meta.url).href;

const SCRIPT = `
import { runInNewContext } from 'node:vm';
import { collectStartUpGarbage } from ${JSON.stringify(MODULE)};
// ~64 MB of short-lived arrays, as a start-up leaves garbage behind: freed, but still resident.
let keep = [];
for (let i = 0; i < 64; i++) keep.push(new Array(128 * 1024).fill(i));
keep = undefined;
const rssBefore = process.memoryUsage().rss;
const result = collectStartUpGarbage();
console.log(JSON.stringify({
  result,
  rssFreed: rssBefore - process.memoryUsage().rss,
  gcHere: typeof globalThis.gc,
  gcInALaterContext: runInNewContext('typeof gc'),
}));
`;

describe('collectStartUpGarbage', () => {
  it('collects, gives the pages back, and leaves no gc function behind', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--input-type=module',
      '--eval',
      SCRIPT,
    ]);
    const seen = JSON.parse(stdout) as {
      result: { ms: number; heapFreedBytes: number };
      rssFreed: number;
      gcHere: string;
      gcInALaterContext: string;
    };
    expect(seen.result.ms).toBeGreaterThanOrEqual(0);
    expect(seen.result.heapFreedBytes).toBeGreaterThan(32 * 1_048_576);
    expect(seen.rssFreed).toBeGreaterThan(32 * 1_048_576);
    expect(seen.gcHere).toBe('undefined');
    expect(seen.gcInALaterContext).toBe('undefined');
  });
});
