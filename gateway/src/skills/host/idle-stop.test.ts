import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { createSkillIsolation } from './isolation.ts';
import { createSkillFixture, type SkillFixture } from './testing/skill-fixture.ts';

/** A plugin that counts its calls (in memory) and says which process answers. */
const COUNTER = `
import { Plugin } from 'hearth:skill';

export default class Counter extends Plugin {
  constructor() {
    super();
    this.calls = 0;
  }

  /** Counts this call and names the process. */
  count() {
    this.calls += 1;
    return { calls: this.calls, pid: process.pid };
  }

  /** Answers after a while. */
  async slow() {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return 'slow done';
  }
}
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(10);
  }
}

describe('a skill host unused for idleMs is stopped and restarted by the next call', () => {
  const IDLE_MS = 250;
  const isolation = createSkillIsolation({
    executor: 'local',
    logger: silentLogger(),
    bwrapPath: null,
    limits: { idleMs: IDLE_MS, callTimeoutMs: 20_000, startTimeoutMs: 20_000 },
  });
  let fixture: SkillFixture;
  beforeAll(async () => void (fixture = await createSkillFixture({ withoutWall: true })));
  afterAll(() => fixture.remove());

  const count = async (host: Awaited<ReturnType<typeof isolation.start>>) =>
    JSON.parse(await host.call('count', {})) as { calls: number; pid: number };

  it('idle: the process is stopped; the next call starts a fresh one and answers (plugin state starts afresh)', async () => {
    const host = await isolation.start(await fixture.write('counter', 'mjs', COUNTER));
    try {
      expect(isolation.running?.()).toBe(1);
      const first = await count(host);
      const second = await count(host);
      expect([first.calls, second.calls]).toEqual([1, 2]);
      expect(second.pid).toBe(first.pid);

      await until(() => isolation.running?.() === 0);
      const gone = () => {
        try {
          process.kill(first.pid, 0);
          return false;
        } catch {
          return true;
        }
      };
      await until(gone); // the process itself ends, not only the host's record of it

      const after = await count(host);
      expect(after.pid).not.toBe(first.pid);
      expect(after.calls).toBe(1); // documented: in-memory state does not survive an idle stop
      expect(isolation.running?.()).toBe(1);
    } finally {
      await host.close();
    }
    expect(isolation.running?.()).toBe(0);
  });

  it('a host in use is never stopped: a call longer than idleMs completes', async () => {
    const host = await isolation.start(await fixture.write('busy', 'mjs', COUNTER));
    try {
      const calls = [host.call('slow', {}), host.call('slow', {}), host.call('slow', {})];
      expect(await Promise.all(calls)).toEqual(['slow done', 'slow done', 'slow done']);
    } finally {
      await host.close();
    }
  });

  it('calls made around the moment of the idle stop are none of them lost', async () => {
    const host = await isolation.start(await fixture.write('racer', 'mjs', COUNTER));
    try {
      const answers: number[] = [];
      // Calls land just before, at and just after the idle deadline, several times over.
      for (const wait of [IDLE_MS - 20, IDLE_MS, IDLE_MS + 5, IDLE_MS + 30, IDLE_MS - 5]) {
        await sleep(wait);
        const burst = await Promise.all([count(host), count(host)]);
        answers.push(...burst.map((answer) => answer.calls));
      }
      expect(answers).toHaveLength(10);
      for (const calls of answers) expect(calls).toBeGreaterThan(0);
    } finally {
      await host.close();
    }
  });

  it('idleMs 0 keeps the host running', async () => {
    const keep = createSkillIsolation({
      executor: 'local',
      logger: silentLogger(),
      bwrapPath: null,
      limits: { idleMs: 0 },
    });
    const host = await keep.start(await fixture.write('kept', 'mjs', COUNTER));
    try {
      const first = await count(host);
      await sleep(IDLE_MS * 2);
      expect(keep.running?.()).toBe(1);
      const again = await count(host);
      expect(again).toEqual({ calls: 2, pid: first.pid });
    } finally {
      await host.close();
    }
  });
});
