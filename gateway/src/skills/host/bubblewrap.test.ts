import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { wrapInBubblewrap } from './bubblewrap.ts';
import { createSkillIsolation } from './isolation.ts';
import { noNewProcessesFilter } from './seccomp.ts';
import type { ChildCommand } from './skill-process.ts';

function run(command: ChildCommand): Promise<string> {
  const child = spawn(command.file, command.args, {
    cwd: command.cwd,
    env: command.env,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  (child.stdio[3] as Writable).end(command.fd3 ?? Buffer.alloc(0));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', () => resolve(output)));
}

const available =
  createSkillIsolation({ executor: 'local', logger: silentLogger() }).description ===
    'bubblewrap+permission' && noNewProcessesFilter() !== null;

// Needs a working bwrap on x86_64; elsewhere the permission model is the process wall.
describe.skipIf(!available)(
  'the seccomp filter inside bubblewrap (kernel wall, no interpreter help; skipped without a working bwrap on x86_64)',
  () => {
    let root: string;
    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'hearth-bwrap-'));
      await mkdir(join(root, 'data'));
    });
    afterAll(() => rm(root, { recursive: true, force: true }));

    const shell = (marker: string): ChildCommand => ({
      file: '/bin/sh',
      args: ['-c', `/usr/bin/touch ${marker}; echo finished`],
      env: { PATH: '/usr/bin:/bin' },
      cwd: join(root, 'data'),
    });
    const walls = (seccomp: Buffer | null) => ({
      bwrapPath: '/usr/bin/bwrap',
      readOnly: [],
      writable: [join(root, 'data')],
      network: false,
      seccomp,
    });

    it('lets a shell start no process at all', async () => {
      const marker = join(root, 'data', 'forked');
      const output = await run(wrapInBubblewrap(shell(marker), walls(noNewProcessesFilter())));
      expect(output).toContain('Cannot fork');
      expect(existsSync(marker)).toBe(false);
    });

    it('is what stops it: the same shell without the filter does start one', async () => {
      const marker = join(root, 'data', 'control');
      const output = await run(wrapInBubblewrap(shell(marker), walls(null)));
      expect(output).toContain('finished');
      expect(existsSync(marker)).toBe(true);
    });
  },
);
