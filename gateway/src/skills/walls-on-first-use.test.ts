import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import { createToolRegistry } from '../tools/ports.ts';
import { skillsArea } from './area.ts';
import { createSkillValidator } from './checks.ts';
import type { SkillIsolation } from './types.ts';

/** Walls that count how often they were built (the real ones probe bwrap and prlimit). */
function countedWalls() {
  const built = { count: 0 };
  const isolation = async (): Promise<SkillIsolation> => {
    built.count += 1;
    return await Promise.resolve({
      description: 'counted walls',
      resources: 'no limits (test double)',
      running: () => 0,
      start: () => Promise.reject(new Error('no host in this test')),
    });
  };
  return { isolation, built };
}

describe('skill walls are probed on first use, not at start-up', () => {
  let home: string | undefined;
  afterEach(async () => {
    if (home) await rm(home, { recursive: true, force: true });
    home = undefined;
  });

  it('starts with no skill installed without building the walls; settling for /status builds them once', async () => {
    home = await mkdtemp(join(tmpdir(), 'hearth-skill-walls-'));
    const { isolation, built } = countedWalls();
    const area = skillsArea({
      home,
      tools: createToolRegistry(),
      validate: createSkillValidator(),
      isolation,
      logger: silentLogger(),
      now: Date.now,
    });
    expect(area.status?.()).toEqual({});
    await area.start?.();
    expect(built.count).toBe(0);
    expect(area.status?.()).toEqual({});
    await Promise.all([area.settle?.(), area.settle?.()]);
    expect(area.status?.()).toEqual({
      skills: 'counted walls; 0 skill hosts running',
      skill_limits: 'no limits (test double)',
    });
    await area.settle?.();
    expect(built.count).toBe(1);
    await area.close?.();
  });
});
