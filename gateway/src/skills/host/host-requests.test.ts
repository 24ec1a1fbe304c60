import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import type { HostToolCall } from '../types.ts';
import { createSkillIsolation } from './isolation.ts';
import { createSkillFixture, type SkillFixture } from './testing/skill-fixture.ts';

const SKILL = `
import { shell, browser } from 'hearth:skill';
import { writeSync } from 'node:fs';

/** Asks the gateway to run a command and returns its answer. */
export async function run({ command }) {
  return shell(command, { timeout: 5 });
}

/** Asks for the browser. */
export async function look({ url }) {
  return browser({ action: 'navigate', url });
}

/** Asks twice at once. */
export async function twice() {
  const results = await Promise.allSettled([shell('echo a'), shell('echo b')]);
  return results.map((r) => r.status === 'fulfilled' ? r.value : 'refused: ' + r.reason.message);
}

/** Asks after its call has returned. */
export function later() {
  setTimeout(() => {
    writeSync(1, JSON.stringify({ request: 99, method: 'shell', params: { command: 'echo late' } }) + '\\n');
  }, 10);
  return 'returned';
}

/** Sends malformed requests, then an ordinary answer. */
export function garbage() {
  writeSync(1, JSON.stringify({ request: 'x', method: 'shell' }) + '\\n');
  writeSync(1, JSON.stringify({ request: -1, method: 'shell' }) + '\\n');
  writeSync(1, JSON.stringify({ request: 1.5, method: 'shell' }) + '\\n');
  return 'still here';
}
`;

describe('requests of a running skill call for the gateway’s tools', () => {
  const isolation = createSkillIsolation({
    executor: 'local',
    logger: silentLogger(),
    limits: { callTimeoutMs: 1_500 },
  });
  let fixture: SkillFixture;
  beforeAll(async () => {
    fixture = await createSkillFixture();
  });
  afterAll(() => fixture.remove());

  it('are answered by the call’s hostTools with the method and params the skill gave', async () => {
    const host = await isolation.start(await fixture.write('asks', 'mjs', SKILL));
    const seen: [string, Record<string, unknown>][] = [];
    const hostTools: HostToolCall = (method, params) => {
      seen.push([method, params]);
      return Promise.resolve(`ran ${method}`);
    };
    try {
      expect(await host.call('run', { command: 'ls -l' }, { hostTools })).toBe('ran shell');
      expect(await host.call('look', { url: 'https://example.com/' }, { hostTools })).toBe(
        'ran browser',
      );
      expect(seen).toEqual([
        ['shell', { timeout: 5, command: 'ls -l' }],
        ['browser', { action: 'navigate', url: 'https://example.com/' }],
      ]);
    } finally {
      await host.close();
    }
  });

  it('a refusal reaches the skill as an error it can catch or return', async () => {
    const host = await isolation.start(await fixture.write('refused', 'mjs', SKILL));
    try {
      await expect(
        host.call(
          'run',
          { command: 'ls' },
          {
            hostTools: () =>
              Promise.reject(new Error('skill refused did not declare the shell capability')),
          },
        ),
      ).rejects.toMatchObject({
        reason: 'tool',
        message: 'skill refused: skill refused did not declare the shell capability',
      });
      // No hostTools at all: refused too.
      await expect(host.call('run', { command: 'ls' })).rejects.toMatchObject({
        message: expect.stringContaining('may not use the gateway') as string,
      });
    } finally {
      await host.close();
    }
  });

  it('the call’s timeout does not run while the gateway works on a request (an approval may wait)', async () => {
    const host = await isolation.start(await fixture.write('patient', 'mjs', SKILL));
    try {
      const slow: HostToolCall = () =>
        new Promise((resolve) => setTimeout(() => resolve('approved late'), 2_500));
      expect(await host.call('run', { command: 'ls' }, { hostTools: slow })).toBe('approved late');
    } finally {
      await host.close();
    }
  });

  it('one request at a time: a second one while the first is answered is refused', async () => {
    const host = await isolation.start(await fixture.write('greedy', 'mjs', SKILL));
    try {
      const hostTools: HostToolCall = (_method, params) =>
        new Promise((resolve) => setTimeout(() => resolve(`ran ${String(params.command)}`), 100));
      const answer = JSON.parse(await host.call('twice', {}, { hostTools })) as string[];
      expect(answer).toEqual(['ran echo a', 'refused: one request for a gateway tool at a time']);
    } finally {
      await host.close();
    }
  });

  it('a request after the call returned, or a malformed one, is never answered by anyone', async () => {
    const host = await isolation.start(await fixture.write('late', 'mjs', SKILL));
    let asked = 0;
    const hostTools: HostToolCall = () => {
      asked += 1;
      return Promise.resolve('ran');
    };
    try {
      expect(await host.call('later', {}, { hostTools })).toBe('returned');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await host.call('garbage', {}, { hostTools })).toBe('still here');
      expect(asked).toBe(0);
    } finally {
      await host.close();
    }
  });
});
