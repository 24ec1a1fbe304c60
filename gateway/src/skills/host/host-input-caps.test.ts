/**
 * Everything a skill host writes to the gateway has a cap, a counter and a clear error — here
 * against a real host child behind the local walls: requests it never reads the answers of,
 * lines the protocol does not have, and a tool list without end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { SkillCallError } from './errors.ts';
import { createSkillIsolation } from './isolation.ts';
import type { SkillInputLimit } from './skill-process.ts';
import { createSkillFixture, type SkillFixture } from './testing/skill-fixture.ts';

const SKILL = `
import { writeSync } from 'node:fs';

/** One whole line on stdout (a pipe the gateway empties: a full one is tried again). */
function put(line) {
  for (let written = 0; written < line.length; ) {
    try {
      written += writeSync(1, line.slice(written));
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
    }
  }
}

/**
 * Writes requests for gateway tools without end and never reads the answers: its event loop
 * stays in this loop, so the gateway's refusals pile up in front of its stdin.
 */
export function deaf() {
  const line = JSON.stringify({ request: 1, method: 'shell', params: { command: 'true' } }) + '\\n';
  for (let i = 0; i < 400_000; i += 1) put(line);
  return 'never read a thing';
}

/** Writes lines the protocol does not have (forged events), then answers. */
export function chatter({ lines }) {
  const line = JSON.stringify({ event: 'egress', url: 'https://example.com/' }) + '\\n';
  for (let i = 0; i < lines; i += 1) put(line);
  return 'chattered';
}

/** An ordinary tool. */
export function ping() {
  return 'pong';
}
`;

/** A skill whose module lists 150 tools. */
const MANY_TOOLS = Array.from(
  { length: 150 },
  (_, i) => `/** Tool ${i}. */\nexport function tool${i}() { return ${i}; }\n`,
).join('');

describe('a skill host’s input to the gateway is capped (local host, real child)', () => {
  const refused: SkillInputLimit[] = [];
  const isolation = createSkillIsolation({
    executor: 'local',
    logger: silentLogger(),
    limits: { callTimeoutMs: 20_000, maxStrayLines: 50, maxUnreadInputBytes: 512 * 1024 },
    onRefused: (limit) => refused.push(limit),
  });
  let fixture: SkillFixture;
  beforeAll(async () => {
    fixture = await createSkillFixture();
  });
  afterAll(() => fixture.remove());

  it('a host that asks without reading the answers is stopped once the cap of them waits for it', async () => {
    refused.length = 0;
    const host = await isolation.start(await fixture.write('deaf', 'mjs', SKILL));
    try {
      const started = Date.now();
      const error = await host.call('deaf', {}).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SkillCallError);
      expect((error as Error).message).toBe(
        'skill deaf: the skill host did not read its input (more than 524288 bytes of answers waited for it) and was stopped',
      );
      expect((error as SkillCallError).reason).toBe('protocol');
      expect(Date.now() - started).toBeLessThan(20_000); // stopped, not timed out
      expect(refused).toContain('unread_input_bytes');
      // A fresh host answers the next call.
      expect(await host.call('ping', {})).toBe('pong');
    } finally {
      await host.close();
    }
  }, 30_000);

  it('stray lines are ignored up to the cap; past it the host is stopped, counted', async () => {
    refused.length = 0;
    const host = await isolation.start(await fixture.write('chatter', 'mjs', SKILL));
    try {
      expect(await host.call('chatter', { lines: 50 })).toBe('chattered');
      expect(refused).toEqual([]);
      const error = await host.call('chatter', { lines: 51 }).catch((caught: unknown) => caught);
      expect((error as SkillCallError).reason).toBe('protocol');
      expect((error as Error).message).toBe(
        'skill chatter: the skill host wrote more than 50 lines the protocol does not have and was stopped',
      );
      expect(refused).toEqual(['stray_lines']);
    } finally {
      await host.close();
    }
  });

  it('a skill listing more tools than the cap does not load, and says how many it listed', async () => {
    refused.length = 0;
    const started = isolation.start(await fixture.write('many', 'mjs', MANY_TOOLS));
    await expect(started).rejects.toThrow(
      'skill many: the skill lists 150 tools; at most 100 are taken',
    );
    expect(refused).toEqual(['tools_listed']);
    await expect.poll(() => isolation.running?.()).toBe(0);
  });
});
