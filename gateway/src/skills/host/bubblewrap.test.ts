import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { wrapInBubblewrap } from './bubblewrap.ts';
import { createSkillIsolation } from './isolation.ts';
import { noNewProcessesFilter } from '../../../../common/sandbox/seccomp.ts';
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

describe.skipIf(!available)(
  'the network inside bubblewrap (kernel wall, no runtime help; skipped without a working bwrap)',
  () => {
    let root: string;
    let tcp: Server;
    let abstract: Server;
    let hits = 0;
    let port: number;
    const abstractPath = `\0hearth-bwrap-net-${process.pid}`;
    const nodePath = realpathSync(process.execPath);
    const listen = async (server: Server, ...at: [number, string] | [string]) => {
      await new Promise<void>((done) => server.listen(...(at as [number, string]), done));
      return server;
    };

    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'hearth-bwrap-net-'));
      const count = (socket: Socket) => {
        hits += 1;
        socket.end();
      };
      tcp = await listen(createServer(count), 0, '127.0.0.1');
      port = (tcp.address() as AddressInfo).port;
      abstract = await listen(createServer(count), abstractPath);
    });
    afterAll(async () => {
      await new Promise((done) => tcp?.close(done));
      await new Promise((done) => abstract?.close(done));
      await rm(root, { recursive: true, force: true });
    });

    /** Plain Node (no skill runtime, no permission model) trying one connection. */
    const connect = (target: string): ChildCommand => ({
      file: nodePath,
      args: [
        '-e',
        `const s = require('node:net').connect(${target}, () => { console.log('connected'); s.end(); });
         s.on('error', (e) => console.log('refused ' + e.code));
         s.setTimeout(3000, () => { console.log('timeout'); s.destroy(); });`,
      ],
      env: { PATH: '/usr/bin:/bin' },
      cwd: root,
    });
    const walls = () => ({
      bwrapPath: '/usr/bin/bwrap',
      readOnly: [dirname(nodePath)],
      writable: [root],
      seccomp: null,
    });

    it('a host reaches no TCP port and no abstract Unix socket of the machine', async () => {
      hits = 0;
      const targets = [
        `{ host: '127.0.0.1', port: ${port} }`,
        `{ path: ${JSON.stringify(abstractPath)} }`,
      ];
      for (const target of targets) {
        const output = await run(wrapInBubblewrap(connect(target), walls()));
        expect(output).toMatch(/refused E/);
      }
      expect(hits).toBe(0);
    });

    it('is what stops it: the same program outside bubblewrap connects', async () => {
      hits = 0;
      expect(await run(connect(`{ host: '127.0.0.1', port: ${port} }`))).toContain('connected');
      expect(await run(connect(`{ path: ${JSON.stringify(abstractPath)} }`))).toContain(
        'connected',
      );
      expect(hits).toBe(2);
    });
  },
);
