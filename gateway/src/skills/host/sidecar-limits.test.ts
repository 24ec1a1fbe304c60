/**
 * Resource limits of skill hosts in the sandbox sidecar (a real sidecar process, process
 * backend, limits from SANDBOX_SKILL_*): a host over one is killed there, and the gateway's
 * call fails with reason `limit` naming it, told to `onLimit` as for local hosts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import type { SkillHost, SkillIsolation } from '../types.ts';
import { createSidecarSkillIsolation } from './sidecar-isolation.ts';
import { failure, hostileLimitsSkill } from './testing/hostile-limits.ts';
import { createSkillFixture, type SkillFixture } from './testing/skill-fixture.ts';
import { startSidecarProcess, type SidecarProcess } from './testing/sidecar-process.ts';

// Chunks every 40 ms: the sidecar's watch samples while the call still runs.
const HOSTILE = hostileLimitsSkill(40);

describe('resource limits of skill hosts in the sandbox sidecar (process backend)', () => {
  let sidecar: SidecarProcess;
  let fixture: SkillFixture;
  let isolation: SkillIsolation;

  beforeAll(async () => {
    sidecar = await startSidecarProcess({
      SANDBOX_SKILL_MEMORY_MB: '128',
      SANDBOX_SKILL_CPU_SECONDS: '3',
      SANDBOX_SKILL_MAX_FILES: '48',
    });
    fixture = await createSkillFixture();
    isolation = createSidecarSkillIsolation({
      url: sidecar.url,
      token: () => sidecar.token,
      logger: silentLogger(),
      limits: { callTimeoutMs: 15_000, startTimeoutMs: 20_000, idleMs: 0 },
    });
  }, 60_000);
  afterAll(async () => {
    await fixture?.remove();
    await sidecar?.stop();
  });

  async function hostile(name: string): Promise<{ host: SkillHost; limits: string[] }> {
    const limits: string[] = [];
    const options = await fixture.write(name, 'mjs', HOSTILE);
    const host = await isolation.start({ ...options, onLimit: (reason) => limits.push(reason) });
    return { host, limits };
  }

  it('kills a host holding 1 GB of Buffers and names the memory limit', async () => {
    const { host, limits } = await hostile('hoarder');
    try {
      const error = await failure(host.call('hoardBuffers', {}));
      expect(error.reason).toBe('limit');
      expect(error.message).toMatch(
        /^skill hoarder: the skill host was stopped: it used \d+ MB of memory, over its 128 MB limit \(SANDBOX_SKILL_MEMORY_MB\)$/,
      );
      expect(limits).toHaveLength(1);
    } finally {
      await host.close();
    }
  });

  it('kills a host at its CPU-time limit and names it', async () => {
    const { host, limits } = await hostile('burner');
    try {
      const error = await failure(host.call('burn', {}));
      expect(error.reason).toBe('limit');
      expect(error.message).toBe(
        'skill burner: the skill host was stopped: it used its 3 s of CPU time (SANDBOX_SKILL_CPU_SECONDS)',
      );
      expect(limits).toHaveLength(1);
    } finally {
      await host.close();
    }
  });

  it('refuses opening files past the open-file limit', async () => {
    const { host } = await hostile('opener');
    try {
      const answer = await host.call('openFiles', {});
      const match = /^EMFILE after (\d+)$/.exec(answer);
      expect(match, answer).not.toBeNull();
      expect(Number(match![1])).toBeLessThan(48);
    } finally {
      await host.close();
    }
  });
});
