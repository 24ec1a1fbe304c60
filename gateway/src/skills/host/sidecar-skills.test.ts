/**
 * Skills hosted by the sandbox-executor sidecar (`[security] executor = "sandbox"`): the
 * sidecar runs as a real process (process backend), the gateway's side speaks to it over
 * `GET /skills/host`. Hostile callers (no or wrong token, traversing and oversized file names,
 * garbage frames) are refused and the sidecar stays healthy; skills that crash, hang or try to
 * escape end as tool errors.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { silentLogger } from '../../observability/logger.ts';
import type { SkillIsolation } from '../types.ts';
import { SkillCallError } from './errors.ts';
import { createSidecarSkillIsolation } from './sidecar-isolation.ts';
import { skillHostUrl } from './sidecar-link.ts';
import { createSkillFetch } from './skill-fetch.ts';
import { createSkillFixture, type SkillFixture } from './testing/skill-fixture.ts';
import { startSidecarProcess, type SidecarProcess } from './testing/sidecar-process.ts';

const SKILL = `
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Adds two numbers.
 * @param {number} a
 * @param {number} b
 */
export function add(a, b) {
  return a + b;
}

/** Reads a file shipped in the skill's own folder. */
export function own() {
  return readFileSync(new URL('./cities.txt', import.meta.url), 'utf8').trim();
}

/** Keeps a note in the data folder (HOME). */
export function note({ text }) {
  writeFileSync(process.env.HOME + '/note.txt', text);
  return readFileSync(process.env.HOME + '/note.txt', 'utf8');
}

/** Ends its own process. */
export function crash() {
  process.exit(3);
}

/** Never returns. */
export function spin() {
  for (;;) {}
}

/** Tries to start a process. */
export function spawnShell({ marker }) {
  return String(process.getBuiltinModule('child_' + 'process').execFileSync('/bin/sh', ['-c', 'touch ' + marker]));
}

/** Reaches process through the Function constructor, then tries again. */
export function functionConstructor({ marker }) {
  const escaped = (() => {}).constructor('return process')();
  return String(escaped.getBuiltinModule('child_process').execFileSync('/bin/sh', ['-c', 'touch ' + marker]));
}

/** Reads a file outside its folders. */
export function readOutside({ path }) {
  return readFileSync(path, 'utf8');
}

/** Writes a file outside its data folder. */
export function writeOutside({ path }) {
  writeFileSync(path, 'escaped');
  return 'written';
}

/** Fetches through whatever fetch it has. */
export async function fetchUrl({ url }) {
  return await (await fetch(url)).text();
}

/** Connects to a TCP port of the machine directly. */
export async function rawTcp({ port }) {
  const net = await import('node:net');
  return await new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => { socket.end(); resolve('connected'); });
    socket.on('error', reject);
    socket.setTimeout(2000, () => reject(new Error('timeout')));
  });
}

/** Everything in its environment. */
export function environment() {
  return JSON.stringify(process.env);
}

/** Fills its stdout far past the answer cap. */
export function flood() {
  return 'x'.repeat(2_000_000);
}
`;

async function attempt(
  host: Awaited<ReturnType<SkillIsolation['start']>>,
  tool: string,
  args: Record<string, unknown> = {},
  timeoutMs = 15_000,
): Promise<{ ok: boolean; text: string }> {
  try {
    return { ok: true, text: await host.call(tool, args, { timeoutMs }) };
  } catch (error) {
    expect(error).toBeInstanceOf(SkillCallError); // a tool error, never anything else
    return { ok: false, text: (error as Error).message };
  }
}

/** One raw socket to /skills/host: the messages it got and how it closed. */
async function rawSocket(
  sidecar: SidecarProcess,
  send: (socket: WebSocket) => void,
  token = sidecar.token,
): Promise<{ status?: number; messages: string[]; code?: number }> {
  const socket = new WebSocket(skillHostUrl(sidecar.url), {
    headers: token === '' ? {} : { 'x-sandbox-token': token },
  });
  const messages: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the sidecar neither answered nor closed')),
      20_000,
    );
    socket.on('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      resolve({ status: response.statusCode, messages });
      socket.terminate();
    });
    socket.on('open', () => send(socket));
    socket.on('message', (data: Buffer, binary) => {
      if (!binary) messages.push(data.toString('utf8'));
    });
    socket.on('close', (code) => {
      clearTimeout(timer);
      resolve({ messages, code });
    });
    socket.on('error', () => {});
  });
}

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** Whether bwrap can build a sandbox here (without it, Node 24 cannot refuse a socket). */
function bubblewrapWorksHere(): boolean {
  const args = ['--unshare-all', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', 'true'];
  return spawnSync('bwrap', args, { stdio: 'ignore', timeout: 5000 }).status === 0;
}

describe('skills hosted by the sandbox sidecar (a real sidecar process, process backend)', () => {
  let sidecar: SidecarProcess;
  let fixture: SkillFixture;
  let isolation: SkillIsolation;
  let runtime: Record<string, string>;

  beforeAll(async () => {
    sidecar = await startSidecarProcess();
    fixture = await createSkillFixture();
    isolation = createSidecarSkillIsolation({
      url: sidecar.url,
      token: () => sidecar.token,
      logger: silentLogger(),
      limits: { callTimeoutMs: 15_000, startTimeoutMs: 20_000, maxOutputBytes: 256 * 1024 },
    });
    const dir = join(import.meta.dirname, 'runtime');
    runtime = {
      'runtime.mjs': (await readFile(join(dir, 'runtime.mjs'))).toString('base64'),
      'skill-api.mjs': (await readFile(join(dir, 'skill-api.mjs'))).toString('base64'),
    };
  }, 60_000);
  afterAll(async () => {
    await fixture?.remove();
    await sidecar?.stop();
  });

  const healthy = async () => {
    const res = await fetch(`${sidecar.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', skills: 'process' });
  };

  it('a skill answers from the sidecar; /status names the isolation; its data folder is the sidecar’s', async () => {
    const options = await fixture.write('sums', 'mjs', SKILL);
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(join(options.dir, 'cities.txt'), 'Oslo\n'),
    );
    const host = await isolation.start(options);
    try {
      expect(host.tools.map((tool) => tool.name)).toContain('add');
      expect(await host.call('add', { a: 2, b: 3 })).toBe('5');
      expect(await host.call('own', {})).toBe('Oslo');
      expect(await host.call('note', { text: 'kept' })).toBe('kept');
      expect(existsSync(join(sidecar.skillsDir, 'data', 'sums', 'note.txt'))).toBe(true);
      expect(isolation.running?.()).toBe(1);
      expect(isolation.description).toBe('sandbox sidecar (process, wall: bubblewrap)');
    } finally {
      await host.close();
    }
    expect(isolation.running?.()).toBe(0);
  });

  it('a crash and a hang are tool errors; the next call gets a fresh host', async () => {
    const host = await isolation.start(await fixture.write('crashy', 'mjs', SKILL));
    try {
      const crashed = await attempt(host, 'crash');
      expect(crashed.ok).toBe(false);
      expect(crashed.text).toMatch(/stopped \(exit code 3\)/);
      const hung = await attempt(host, 'spin', {}, 1_500);
      expect(hung).toMatchObject({ ok: false, text: expect.stringMatching(/longer than 1500 ms/) });
      const flooded = await attempt(host, 'flood');
      expect(flooded).toMatchObject({ ok: false, text: expect.stringMatching(/exceeds/) });
      expect(await host.call('add', { a: 1, b: 1 })).toBe('2');
    } finally {
      await host.close();
    }
    await healthy();
  });

  it('evasive calls cannot spawn, read or write outside the skill’s folders, or see a secret', async () => {
    const marker = join(fixture.root, 'spawned-marker');
    const host = await isolation.start(await fixture.write('evasive', 'mjs', SKILL));
    try {
      for (const tool of ['spawnShell', 'functionConstructor'])
        expect((await attempt(host, tool, { marker })).ok).toBe(false);
      expect(existsSync(marker)).toBe(false);
      for (const path of ['/etc/passwd', join(fixture.root, 'skills', 'sums', 'skill.mjs')])
        expect((await attempt(host, 'readOutside', { path })).ok).toBe(false);
      const outside = join(fixture.root, 'escaped.txt');
      expect((await attempt(host, 'writeOutside', { path: outside })).ok).toBe(false);
      expect(existsSync(outside)).toBe(false);
      const env = JSON.parse(await host.call('environment', {})) as Record<string, string>;
      // Built from nothing (bubblewrap adds PWD): none of the sidecar's own variables.
      for (const name of Object.keys(env))
        expect(['HOME', 'PATH', 'PWD', 'TMPDIR']).toContain(name);
      expect(JSON.stringify(env)).not.toContain(sidecar.token);
    } finally {
      await host.close();
    }
    await healthy();
  });

  it('a skill in the sidecar has no network: its fetch is answered by the gateway, raw TCP fails', async () => {
    const asked: string[] = [];
    const networked = createSidecarSkillIsolation({
      url: sidecar.url,
      token: () => sidecar.token,
      logger: silentLogger(),
      limits: { callTimeoutMs: 15_000, startTimeoutMs: 20_000 },
      skillFetch: createSkillFetch({
        resolve: () => Promise.resolve([{ address: '93.184.216.34', family: 4 }]),
        fetch: (url) => {
          asked.push(url.href);
          return Promise.resolve(new Response('answered by the gateway'));
        },
        attribute: (_source, work) => work(),
        refused: () => undefined,
      }),
    });
    let hits = 0;
    const listener = createNetServer((socket) => {
      hits += 1;
      socket.end();
    });
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    const { port } = listener.address() as AddressInfo;
    const host = await networked.start(
      await fixture.write('netside', 'mjs', SKILL, true, ['api.example.com']),
    );
    try {
      expect(await host.call('fetchUrl', { url: 'https://api.example.com/x' })).toBe(
        'answered by the gateway',
      );
      expect(asked).toEqual(['https://api.example.com/x']);
      const undeclared = await attempt(host, 'fetchUrl', { url: 'https://evil.example/' });
      expect(undeclared).toMatchObject({ ok: false });
      expect(undeclared.text).toMatch(/not among the hosts skill netside declares/);
      // The sidecar runs on this machine: its bubblewrap works when this one does.
      if (bubblewrapWorksHere()) {
        expect(await attempt(host, 'rawTcp', { port })).toMatchObject({ ok: false });
        expect(hits).toBe(0);
      }
    } finally {
      await host.close();
      await new Promise((done) => listener.close(done));
    }
  });

  it('a wrong or missing token is refused with 401 before any host starts', async () => {
    expect((await rawSocket(sidecar, () => {}, 'wrong-token-0123456789abcdef')).status).toBe(401);
    expect((await rawSocket(sidecar, () => {}, '')).status).toBe(401);
    const wrong = createSidecarSkillIsolation({
      url: sidecar.url,
      token: () => 'wrong-token-0123456789abcdef',
      logger: silentLogger(),
    });
    await expect(wrong.start(await fixture.write('denied', 'mjs', SKILL))).rejects.toThrow(
      /HTTP 401: missing or wrong x-sandbox-token/,
    );
  });

  it.each([
    ['garbage', 'not json at all', /JSON object/],
    ['an array', '[1,2]', /JSON object/],
    [
      'an unknown field',
      { name: 'x', kind: 'mjs', files: {}, runtime: {}, extra: 1 },
      /unknown field/,
    ],
    ['a bad name', { name: '../x', kind: 'mjs', files: {}, runtime: {} }, /name must be/],
    [
      'a traversing file',
      { files: { '../escape.mjs': base64('x') } },
      /may not contain \. or \.\./,
    ],
    ['a nested traversal', { files: { 'a/../../b': base64('x') } }, /may not contain \. or \.\./],
    ['an absolute path', { files: { '/etc/cron.d/x': base64('x') } }, /must be relative/],
    ['a hidden file', { files: { '.bashrc': base64('x') } }, /no leading dot/],
    ['a backslash', { files: { 'a\\..\\b': base64('x') } }, /must be relative/],
    ['a file that is not base64', { files: { 'skill.mjs': 'not base64!' } }, /base64/],
    [
      'no skill file',
      { files: { 'other.mjs': base64('x') } },
      /skill\.mjs or skill\.js is missing/,
    ],
    ['a foreign runtime file', { runtime: { 'evil.sh': base64('x') } }, /not a runtime file/],
    ['too deep', { files: { [`${'a/'.repeat(9)}skill.mjs`]: base64('x') } }, /nested deeper/],
  ])(
    'a start frame with %s is refused (4400, detail) and nothing runs',
    async (_label, frame, why) => {
      const body =
        typeof frame === 'string'
          ? frame
          : JSON.stringify({
              name: 'hostile',
              kind: 'mjs',
              files: { 'skill.mjs': base64('export const a = () => 1;') },
              runtime,
              ...frame,
            });
      const outcome = await rawSocket(sidecar, (socket) => socket.send(body));
      expect(outcome.code).toBe(4400);
      expect(JSON.parse(outcome.messages[0]!)).toEqual({ detail: expect.stringMatching(why) });
      expect(existsSync(join(sidecar.skillsDir, 'escape.mjs'))).toBe(false);
    },
  );

  it('an oversized skill, a binary first frame and a frame past the socket cap are refused', async () => {
    const big = JSON.stringify({
      name: 'big',
      kind: 'mjs',
      files: {
        'skill.mjs': base64('x'),
        'blob.bin': Buffer.alloc(5 * 1024 * 1024).toString('base64'),
      },
      runtime,
    });
    const oversized = await rawSocket(sidecar, (socket) => socket.send(big));
    expect(oversized.code).toBe(4400);
    expect(oversized.messages[0]).toMatch(/larger than allowed/);
    const binary = await rawSocket(sidecar, (socket) =>
      socket.send(Buffer.from('{}'), { binary: true }),
    );
    expect(binary.code).toBe(4400);
    const huge = await rawSocket(sidecar, (socket) => socket.send('x'.repeat(9 * 1024 * 1024)));
    expect(huge.code).toBe(1009); // the message is larger than the socket takes
    await healthy();
  });

  it('skill.py runs in the sidecar too (bubblewrap there), or is refused saying what to install', async () => {
    const source = 'def hello(name: str):\n    """Greets."""\n    return "hello " + name\n';
    const start = isolation.start(await fixture.write('greeter', 'py', source));
    const result = await start.then(
      async (host) => {
        try {
          return await host.call('hello', { name: 'sidecar' });
        } finally {
          await host.close();
        }
      },
      (error: Error) => error.message,
    );
    expect(result).toMatch(/^hello sidecar$|bubblewrap/);
  });
});

describe('the sidecar down', () => {
  it('a skill does not start (an error the store shows), and /status says the sidecar is unreachable', async () => {
    const fixture = await createSkillFixture();
    try {
      const isolation = createSidecarSkillIsolation({
        url: 'http://127.0.0.1:9', // discard port: nothing listens
        token: () => 'token-0123456789abcdef',
        logger: silentLogger(),
      });
      await expect(isolation.start(await fixture.write('lost', 'mjs', SKILL))).rejects.toThrow(
        /sandbox sidecar is unreachable/,
      );
      await expect.poll(() => isolation.description).toMatch(/^sandbox sidecar \(unreachable: /);
    } finally {
      await fixture.remove();
    }
  });
});
