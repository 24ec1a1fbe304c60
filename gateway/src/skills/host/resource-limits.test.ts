/**
 * Hostile skills against the resource limits of a local host (resource-limits.ts,
 * host-watch.ts): each one goes over one limit, and the host is stopped with the limit named
 * in the call's error and told to `onLimit` (which the store turns into the skill's state).
 * Small limits keep every test short.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import type { SkillHost } from '../types.ts';
import { createSkillIsolation } from './isolation.ts';
import {
  LIMITS_NEED_PRLIMIT,
  type ResourceLimits,
} from '../../../../common/sandbox/resource-limits.ts';
import { failure, hostileLimitsSkill } from './testing/hostile-limits.ts';
import { createSkillFixture, offersWall, type SkillFixture } from './testing/skill-fixture.ts';

const HOSTILE = hostileLimitsSkill();

const THREADS = `
import threading
import time

def threads():
    """Starts 40 sleeping threads."""
    started = 0
    for _ in range(40):
        try:
            threading.Thread(target=time.sleep, args=(10,), daemon=True).start()
            started += 1
        except RuntimeError:
            break
    time.sleep(3)
    return started
`;

const PY_HOG = `
import time

kept = []

def hoard():
    """Allocates 1 GB, a chunk at a time, and holds it."""
    for _ in range(64):
        try:
            kept.append(bytearray(16 * 1024 * 1024))
            kept[-1][::4096] = b'x' * (16 * 1024 * 1024 // 4096)
        except MemoryError:
            pass
        time.sleep(0.02)
    return len(kept)
`;

const SMALL: Partial<ResourceLimits> = {
  memoryMb: 128,
  cpuSeconds: 3,
  maxFiles: 48,
  maxFileMb: 2,
  dataQuotaMb: 4,
  maxTasks: 24,
  idleCpuPercent: 50,
  idleGraceMs: 1_000,
  sampleMs: 200,
};

const walls = [
  { label: 'bubblewrap+permission', bwrapPath: undefined },
  { label: 'permission', bwrapPath: null },
] as const;

function waitFor<T>(check: () => T | undefined, ms: number): Promise<T> {
  const until = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      const value = check();
      if (value !== undefined) return resolve(value);
      if (Date.now() > until) return reject(new Error(`nothing after ${ms} ms`));
      setTimeout(tick, 50);
    };
    tick();
  });
}

describe.each(walls)('resource limits of a skill host ($label)', ({ label, bwrapPath }) => {
  const isolation = createSkillIsolation({
    executor: 'local',
    logger: silentLogger(),
    bwrapPath,
    limits: { callTimeoutMs: 10_000, idleMs: 0 },
    resources: SMALL,
  });
  const unavailable = !offersWall(isolation.description, label);
  let fixture: SkillFixture;

  beforeAll(async () => {
    // Where no wall exists a host runs only by its owner's explicit opt-out (no-wall.ts).
    fixture = await createSkillFixture({ withoutWall: label === 'permission' });
  });
  afterAll(async () => {
    await fixture.remove();
  });

  /** A fresh host of the hostile skill (each test may leave it stopped) and what it reported. */
  async function hostile(name: string): Promise<{ host: SkillHost; limits: string[] }> {
    const limits: string[] = [];
    const options = await fixture.write(name, 'mjs', HOSTILE);
    const host = await isolation.start({ ...options, onLimit: (reason) => limits.push(reason) });
    return { host, limits };
  }

  describe.skipIf(unavailable)('with these walls', () => {
    it('says which limits hosts run under', () => {
      expect(isolation.resources).toBe(
        'memory 128 MB, cpu 3 s per host, idle cpu 50% for 1 s, 48 open files, files 2 MB, data 4 MB, 24 threads',
      );
    });

    it('stops a host that allocates 1 GB of Buffers, names the memory limit, and recovers', async () => {
      const { host, limits } = await hostile('hoarder');
      try {
        const error = await failure(host.call('hoardBuffers', {}));
        expect(error.reason).toBe('limit');
        expect(error.message).toMatch(
          /^skill hoarder: the skill host was stopped: it used \d+ MB of memory, over its 128 MB limit/,
        );
        expect(limits).toHaveLength(1);
        expect(limits[0]).toMatch(/MB of memory, over its 128 MB limit/);
        expect(await host.call('ping', {})).toBe('pong');
      } finally {
        await host.close();
      }
    });

    it('stops a host that keeps burning a core after its tool returned', async () => {
      const { host, limits } = await hostile('spinner');
      try {
        expect(await host.call('spinAfterReturn', {})).toBe('returned');
        const reason = await waitFor(() => limits[0], 5_000);
        expect(reason).toMatch(/^it kept using \d+% of a CPU for \d+ s with no call running/);
        expect(await host.call('ping', {})).toBe('pong');
      } finally {
        await host.close();
      }
    });

    it('stops a host at its CPU-time limit (RLIMIT_CPU)', async () => {
      const { host, limits } = await hostile('burner');
      try {
        const error = await failure(host.call('burn', {}));
        expect(error.reason).toBe('limit');
        expect(error.message).toBe(
          'skill burner: the skill host was stopped: it used its 3 s of CPU time ([skills] host_cpu_seconds)',
        );
        expect(limits).toEqual(['it used its 3 s of CPU time ([skills] host_cpu_seconds)']);
      } finally {
        await host.close();
      }
    });

    it('refuses opening files past the open-file limit (RLIMIT_NOFILE)', async () => {
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

    it('stops a host that writes a file past the file-size limit (RLIMIT_FSIZE)', async () => {
      const { host, limits } = await hostile('writer');
      try {
        const error = await failure(host.call('hugeFile', {}));
        expect(error.reason).toBe('limit');
        expect(error.message).toBe(
          'skill writer: the skill host was stopped: it wrote a file up to the 2 MB file-size limit ([skills] host_max_file_mb)',
        );
        expect(limits).toHaveLength(1);
        const written = await stat(join(fixture.root, 'skill-data', 'writer', 'huge.bin'));
        expect(written.size).toBeLessThanOrEqual(2 * 1024 * 1024);
      } finally {
        await host.close();
      }
    });

    it('stops a host whose data folder goes over its quota and refuses to start it again', async () => {
      const { host, limits } = await hostile('filler');
      try {
        for (let call = 1; call <= 4; call += 1)
          expect(await host.call('fillData', {})).toBe(String(call));
        const error = await failure(host.call('fillData', {}));
        expect(error.reason).toBe('limit');
        expect(error.message).toMatch(
          /^skill filler: the skill host was stopped: its data folder holds \d+ MB, over its 4 MB quota/,
        );
        const again = await failure(host.call('ping', {}));
        expect(again.reason).toBe('limit');
        expect(again.message).toMatch(
          /^skill filler: the skill host was not started: its data folder holds/,
        );
        expect(limits).toHaveLength(2);
        const files = await readdir(join(fixture.root, 'skill-data', 'filler'));
        expect(files).toHaveLength(5);
      } finally {
        await host.close();
      }
    });

    it('starts no process at all', async () => {
      const { host } = await hostile('forker');
      try {
        const answer = JSON.parse(await host.call('processes', {})) as {
          started: number;
          errors: string[];
        };
        expect(answer.started).toBe(0);
        expect(answer.errors).toEqual(['ERR_ACCESS_DENIED']);
      } finally {
        await host.close();
      }
    });
  });

  describe.skipIf(unavailable || label !== 'bubblewrap+permission')('skill.py', () => {
    it('stops a host that allocates 1 GB and names the memory limit', async () => {
      const limits: string[] = [];
      const options = await fixture.write('pyhog', 'py', PY_HOG);
      const host = await isolation.start({ ...options, onLimit: (reason) => limits.push(reason) });
      try {
        const error = await failure(host.call('hoard', {}));
        expect(error.reason).toBe('limit');
        expect(error.message).toMatch(
          /^skill pyhog: the skill host was stopped: it used \d+ MB of memory, over its 128 MB limit/,
        );
        expect(limits).toHaveLength(1);
      } finally {
        await host.close();
      }
    });

    it('stops a host that runs more threads than its limit', async () => {
      const limits: string[] = [];
      const options = await fixture.write('threader', 'py', THREADS);
      const host = await isolation.start({ ...options, onLimit: (reason) => limits.push(reason) });
      try {
        const error = await failure(host.call('threads', {}));
        expect(error.reason).toBe('limit');
        expect(error.message).toMatch(
          /^skill threader: the skill host was stopped: it ran \d+ threads, over its limit of 24/,
        );
        expect(limits).toHaveLength(1);
      } finally {
        await host.close();
      }
    });
  });
});

describe('without a way to set limits', () => {
  it('refuses every skill and says why, in the error and in the status line', async () => {
    const isolation = createSkillIsolation({
      executor: 'local',
      logger: silentLogger(),
      bwrapPath: null,
      prlimitPath: null,
    });
    expect(isolation.resources).toBe(`unavailable: ${LIMITS_NEED_PRLIMIT}`);
    const fixture = await createSkillFixture();
    try {
      const options = await fixture.write('any', 'mjs', 'export function ping() { return 1; }');
      await expect(isolation.start(options)).rejects.toThrow(LIMITS_NEED_PRLIMIT);
    } finally {
      await fixture.remove();
    }
  });
});
