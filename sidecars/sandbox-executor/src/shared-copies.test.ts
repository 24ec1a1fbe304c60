import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

/**
 * The sidecar is deployed on its own (its image holds only this workspace), so it keeps its own
 * copies of the gateway's sandbox pieces. They must stay byte for byte the same: a fix made on
 * one side and not the other would leave one wall weaker than the other.
 */
const copies = [
  ['gateway/src/skills/host/seccomp.ts', 'sidecars/sandbox-executor/src/skills/seccomp.ts'],
  [
    'gateway/src/skills/host/resource-limits.ts',
    'sidecars/sandbox-executor/src/skills/resource-limits.ts',
  ],
  ['gateway/src/skills/host/host-watch.ts', 'sidecars/sandbox-executor/src/skills/host-watch.ts'],
  [
    'gateway/src/tools/executors/local/output-cap.ts',
    'sidecars/sandbox-executor/src/backends/output-cap.ts',
  ],
  [
    'gateway/src/tools/executors/local/process-group.ts',
    'sidecars/sandbox-executor/src/backends/process-group.ts',
  ],
] as const;

const read = (path: string) => readFile(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe("the sidecar's copies of the gateway's sandbox pieces", () => {
  it.each(copies)('%s is the same file as %s', async (gateway, sidecar) => {
    const [ours, theirs] = await Promise.all([read(gateway), read(sidecar)]);
    expect(theirs).toBe(ours);
  });
});
