import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAddressPolicy } from './check-address-policy.ts';

describe("the build's check of the compiled hub address policy", () => {
  it('finds nothing wrong with the policy in the sources', async () => {
    expect(await checkAddressPolicy('gateway/src/hub/address-policy.ts')).toEqual([]);
  });

  it('lists every address a permissive policy would let through', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'hearth-policy-'));
    try {
      const path = join(folder, 'address-policy.js');
      await writeFile(path, 'export function addressProblem() { return undefined; }\n');
      const mismatches = await checkAddressPolicy(path);
      for (const address of ['198.18.0.1', 'fec0::1', '100::1', '2001:20::1', '127.0.0.1'])
        expect(mismatches).toContainEqual(expect.stringMatching(new RegExp(`^${address}: `)));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
