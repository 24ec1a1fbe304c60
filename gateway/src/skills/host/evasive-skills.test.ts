/**
 * Layer 3 must hold by itself: these skills are written straight to disk (the trusted path, so
 * neither the validator nor the scanner stops them) and each tries to get out. Every attempt
 * must end as a tool error or a harmless answer, with no process spawned (the marker file a
 * spawned process would create stays absent), no file outside the skill's folders read or
 * written, no secret reachable, and the gateway (this process, and a bystander process of the
 * same user) unharmed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import type { SkillHost, SkillIsolation } from '../types.ts';
import { SkillCallError } from './errors.ts';
import { createSkillIsolation } from './isolation.ts';
import { createSkillFixture, offersWall, type SkillFixture } from './testing/skill-fixture.ts';

const SECRET = 'sk-evasive-test-0123456789abcdefghijklmnop';
const SSH_KEY = '-----BEGIN OPENSSH PRIVATE KEY----- evasive-test-key';
const CONFIG = `[providers.anthropic]\napi_key = "${SECRET}"\n`;

/** Each tool takes its targets as arguments and tries to escape with them. */
const EVASIVE_MJS = `
const marker = (args) => args.marker;
const touch = (args) => ['-c', 'touch ' + marker(args)];

export function builtinChildProcess(args) {
  return String(process.getBuiltinModule('child_' + 'process').execFileSync('/bin/sh', touch(args)));
}
export function functionConstructor(args) {
  const escaped = (() => {}).constructor('return process')();
  return String(escaped.getBuiltinModule('child_process').execFileSync('/bin/sh', touch(args)));
}
export async function computedImport(args) {
  const name = ['node:child', 'process'].join('_');
  const { execFileSync } = await import(name);
  return String(execFileSync('/bin/sh', touch(args)));
}
export function createRequireEscape(args) {
  const require = process.getBuiltinModule('module').createRequire(import.meta.url);
  return String(require('child_process').spawnSync('/bin/sh', touch(args)).status);
}
export async function worker(args) {
  const { Worker } = process.getBuiltinModule('worker_threads');
  const code = "require('fs').writeFileSync(" + JSON.stringify(marker(args)) + ", 'x')";
  const w = new Worker(code, { eval: true });
  await new Promise((resolve, reject) => { w.on('exit', resolve); w.on('error', reject); });
  return 'worker ran';
}
export function dlopen() {
  const module = { exports: {} };
  process.dlopen(module, '/usr/lib/x86_64-linux-gnu/libc.so.6');
  return 'loaded';
}
export function internalBinding() {
  return String(Object.keys(process.binding('spawn_sync')));
}
export function wasi() {
  const { WASI } = process.getBuiltinModule('wasi');
  return String(new WASI({ version: 'preview1' }));
}
export function inspector() {
  process.getBuiltinModule('inspector').open(0);
  return 'inspector open';
}
export function forkBomb(args) {
  const { spawn } = process.getBuiltinModule('child_process') ?? {};
  for (;;) {
    try { spawn('/bin/sh', touch(args)); } catch {}
  }
}
export function readFile(args) {
  return process.getBuiltinModule('fs').readFileSync(args.path, 'utf8');
}
export function listDir(args) {
  return process.getBuiltinModule('fs').readdirSync(args.path).join(',');
}
export function writeFile(args) {
  process.getBuiltinModule('fs').writeFileSync(args.path, 'escaped');
  return 'written';
}
export function writeOwnData() {
  const fs = process.getBuiltinModule('fs');
  fs.writeFileSync('notes.txt', 'mine');
  return fs.readFileSync('notes.txt', 'utf8');
}
export function symlinkEscape(args) {
  const fs = process.getBuiltinModule('fs');
  fs.symlinkSync(args.path, 'link');
  return fs.readFileSync('link', 'utf8');
}
export function sqlite(args) {
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  new DatabaseSync(args.path).exec('create table t (x)');
  return 'database written';
}
export function environment() {
  return JSON.stringify(process.env);
}
export function parentEnvironment() {
  return process.getBuiltinModule('fs').readFileSync('/proc/' + process.ppid + '/environ', 'utf8');
}
export function signal(args) {
  process.kill(args.pid, 'SIGKILL');
  return 'sent';
}
export function debugProcess(args) {
  process._debugProcess(args.pid);
  return 'inspector asked';
}
export function restoreKill(args) {
  Object.defineProperty(process, 'kill', { value: () => 'mine' });
  process.kill(args.pid, 'SIGKILL');
  return 'sent';
}
export function renice(args) {
  process.getBuiltinModule('os').setPriority(args.pid, 19);
  return 'reniced';
}
export async function fetchLocal(args) {
  const response = await fetch(args.url);
  return await response.text();
}
export function infiniteLoop() {
  for (;;) {}
}
export function hugeOutput() {
  return 'y'.repeat(50_000_000);
}
`;

const EVASIVE_PY = `
import os

def spawn(marker):
    import subprocess
    subprocess.run(["/bin/sh", "-c", "touch " + marker])
    return "spawned"

def system(marker):
    return os.system("touch " + marker)

def fork(marker):
    pid = os.fork()
    if pid == 0:
        open(marker, "w").write("x")
        os._exit(0)
    return "forked"

def posix_spawn(marker):
    return os.posix_spawn("/bin/sh", ["/bin/sh", "-c", "touch " + marker], {})

def native():
    import ctypes
    return str(ctypes.CDLL(None).getpid())

def read_file(path):
    with open(path) as f:
        return f.read()

def write_file(path):
    with open(path, "w") as f:
        f.write("escaped")
    return "written"

def write_own_data():
    with open("notes.txt", "w") as f:
        f.write("mine")
    with open("notes.txt") as f:
        return f.read()

def environment():
    return dict(os.environ)

def signal(pid):
    os.kill(pid, 9)
    return "sent"

def connect(port):
    import socket
    s = socket.create_connection(("127.0.0.1", port), timeout=2)
    s.sendall(b"GET / HTTP/1.0\\r\\n\\r\\n")
    return s.recv(100).decode()
`;

interface Outcome {
  ok: boolean;
  text: string;
}

interface Scene {
  fixture: SkillFixture;
  marker: string;
  outside: string;
  sshKey: string;
  configToml: string;
  bystander: ChildProcess;
  bystanderStderr: () => string;
  server: Server;
  hits: () => number;
  url: string;
  port: number;
}

async function setScene(withoutWall = false): Promise<Scene> {
  const fixture = await createSkillFixture({ withoutWall });
  const outside = join(fixture.root, 'outside');
  await mkdir(join(fixture.root, 'home', '.ssh'), { recursive: true });
  await mkdir(join(fixture.root, 'state'), { recursive: true });
  await mkdir(outside, { recursive: true });
  const sshKey = join(fixture.root, 'home', '.ssh', 'id_ed25519');
  const configToml = join(fixture.root, 'state', 'config.toml');
  await writeFile(sshKey, SSH_KEY);
  await writeFile(configToml, CONFIG);
  // A process of the gateway's user that a skill might try to signal or debug.
  const bystander = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  bystander.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let hits = 0;
  const server = createServer((_request, response) => {
    hits += 1;
    response.end('reached the gateway machine');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    fixture,
    marker: join(outside, 'spawned'),
    outside,
    sshKey,
    configToml,
    bystander,
    bystanderStderr: () => stderr,
    server,
    hits: () => hits,
    url: `http://127.0.0.1:${port}/`,
    port,
  };
}

async function attempt(
  host: SkillHost,
  tool: string,
  args: Record<string, unknown>,
  timeoutMs = 4_000,
): Promise<Outcome> {
  try {
    return { ok: true, text: await host.call(tool, args, { timeoutMs }) };
  } catch (error) {
    expect(error).toBeInstanceOf(SkillCallError); // a tool error, never anything else
    return { ok: false, text: (error as Error).message };
  }
}

/** The environment a gateway has: a provider key and a configured secret in a harmless name. */
function gatewayEnvironment(): Record<string, string | undefined> {
  return { ...process.env, ANTHROPIC_API_KEY: SECRET, LC_EVASIVE: `x${SECRET}`, LANG: 'C.UTF-8' };
}

const walls = [
  { label: 'bubblewrap+permission', bwrapPath: undefined },
  { label: 'permission', bwrapPath: null },
] as const;

describe.each(walls)('evasive node skills ($label)', ({ label, bwrapPath }) => {
  const isolation: SkillIsolation = createSkillIsolation({
    executor: 'local',
    logger: silentLogger(),
    bwrapPath,
    env: gatewayEnvironment(),
    secretValues: [SECRET],
    limits: { maxOutputBytes: 256 * 1024 },
  });
  const unavailable = !offersWall(isolation.description, label);
  const bubblewrap = label === 'bubblewrap+permission';
  let scene: Scene;
  let host: SkillHost;

  beforeAll(async () => {
    scene = await setScene(bwrapPath === null);
    if (!unavailable)
      host = await isolation.start(await scene.fixture.write('evasive', 'mjs', EVASIVE_MJS));
  });
  afterEach(() => {
    if (unavailable) return;
    expect(existsSync(scene.marker), 'a spawned process left its marker').toBe(false);
    expect(scene.bystander.exitCode, 'the bystander process was killed').toBeNull();
    expect(scene.bystander.signalCode).toBeNull();
    expect(scene.bystanderStderr()).not.toContain('Debugger listening');
  });
  afterAll(async () => {
    await host?.close();
    scene.bystander.kill();
    await new Promise((resolve) => scene.server.close(resolve));
    await scene.fixture.remove();
  });

  describe.skipIf(unavailable)(
    'with these walls (skipped when this machine cannot build them, e.g. no working bwrap)',
    () => {
      it.each([
        'builtinChildProcess',
        'functionConstructor',
        'computedImport',
        'createRequireEscape',
        'worker',
        'dlopen',
        'internalBinding',
        'wasi',
        'inspector',
      ])('%s cannot start a process, a thread, native code or a debugger', async (tool) => {
        const outcome = await attempt(host, tool, { marker: scene.marker });
        expect(outcome.ok).toBe(false);
      });

      it('a fork bomb ends at the call timeout as a tool error', async () => {
        const outcome = await attempt(host, 'forkBomb', { marker: scene.marker }, 1_500);
        expect(outcome).toMatchObject({ ok: false });
      });

      it.each([
        ['/etc/passwd', 'root:'],
        ['the ssh key', SSH_KEY],
        ["the gateway's config.toml", SECRET],
      ])('cannot read %s', async (what, secret) => {
        const path =
          what === 'the ssh key' ? scene.sshKey : what.includes('config') ? scene.configToml : what;
        const read = await attempt(host, 'readFile', { path });
        expect(read.ok).toBe(false);
        expect(read.text).not.toContain(secret);
        const symlinked = await attempt(host, 'symlinkEscape', { path });
        expect(symlinked.text).not.toContain(secret);
        await attempt(host, 'writeOwnData', {}); // clears nothing, keeps the host warm
      });

      it('cannot list folders outside its own', async () => {
        for (const path of ['/', scene.fixture.root, join(scene.fixture.root, 'state')]) {
          expect(await attempt(host, 'listDir', { path })).toMatchObject({ ok: false });
        }
      });

      it('cannot write outside its data folder, and can write inside it', async () => {
        const targets = [
          join(scene.outside, 'written'),
          join(scene.fixture.root, 'skills', 'evasive', 'skill.mjs.bak'),
          join(scene.fixture.root, 'state', 'config.toml'),
        ];
        for (const path of targets) {
          expect(await attempt(host, 'writeFile', { path })).toMatchObject({ ok: false });
        }
        expect(existsSync(targets[0]!)).toBe(false);
        expect(existsSync(targets[1]!)).toBe(false);
        expect(
          await attempt(host, 'sqlite', { path: join(scene.outside, 'db.sqlite') }),
        ).toMatchObject({
          ok: false,
        });
        expect(existsSync(join(scene.outside, 'db.sqlite'))).toBe(false);
        expect(await attempt(host, 'writeOwnData', {})).toEqual({ ok: true, text: 'mine' });
      });

      it("sees no secret in its environment nor in its parent's", async () => {
        const env = await attempt(host, 'environment', {});
        expect(env.ok).toBe(true);
        expect(env.text).not.toContain(SECRET);
        const names = Object.keys(JSON.parse(env.text) as Record<string, string>);
        // Built from nothing: the locale survives, the provider key and LC_EVASIVE (its value
        // holds a configured secret) do not. bubblewrap adds PWD.
        expect(names.filter((name) => name !== 'PWD').sort()).toEqual([
          'HOME',
          'LANG',
          'PATH',
          'TMPDIR',
        ]);
        const parent = await attempt(host, 'parentEnvironment', {});
        expect(parent.text).not.toContain(SECRET);
      });

      it.each(['signal', 'debugProcess', 'restoreKill', 'renice'])(
        '%s cannot reach another process of the same user',
        async (tool) => {
          const outcome = await attempt(host, tool, { pid: scene.bystander.pid });
          expect(outcome.ok).toBe(false);
          await new Promise((resolve) => setTimeout(resolve, 100));
        },
      );

      it.skipIf(!bubblewrap)(
        'cannot reach a listener on 127.0.0.1 without network: true (bubblewrap only: Node 24 cannot restrict the network)',
        async () => {
          const outcome = await attempt(host, 'fetchLocal', { url: scene.url });
          expect(outcome.ok).toBe(false);
          expect(scene.hits()).toBe(0);
        },
      );

      it('an endless loop and a huge answer are tool errors, and the host comes back', async () => {
        expect(await attempt(host, 'infiniteLoop', {}, 1_500)).toMatchObject({ ok: false });
        expect(await attempt(host, 'hugeOutput', {})).toMatchObject({ ok: false });
        expect(await attempt(host, 'writeOwnData', {})).toEqual({ ok: true, text: 'mine' });
      });

      it.skipIf(!bubblewrap)(
        'with network: true its host still has no network: its fetch is the gateway’s, which refuses what it does not declare',
        async () => {
          const networked = await isolation.start(
            await scene.fixture.write('networked', 'mjs', EVASIVE_MJS, true, ['api.example.com']),
          );
          try {
            const before = scene.hits();
            const outcome = await attempt(networked, 'fetchLocal', { url: scene.url });
            expect(outcome.ok).toBe(false);
            expect(outcome.text).toMatch(/has no network access/);
            expect(scene.hits()).toBe(before);
          } finally {
            await networked.close();
          }
        },
      );
    },
  );
});

describe('evasive skill.py (bubblewrap and the audit hook)', () => {
  const isolation = createSkillIsolation({
    executor: 'local',
    logger: silentLogger(),
    env: gatewayEnvironment(),
    secretValues: [SECRET],
  });
  const unavailable = isolation.description !== 'bubblewrap+permission';
  let scene: Scene;
  let host: SkillHost;

  beforeAll(async () => {
    scene = await setScene();
    if (!unavailable)
      host = await isolation.start(await scene.fixture.write('evasive', 'py', EVASIVE_PY));
  });
  afterEach(() => {
    if (unavailable) return;
    expect(existsSync(scene.marker), 'a spawned process left its marker').toBe(false);
    expect(scene.bystander.exitCode).toBeNull();
    expect(scene.bystander.signalCode).toBeNull();
  });
  afterAll(async () => {
    await host?.close();
    scene.bystander.kill();
    await new Promise((resolve) => scene.server.close(resolve));
    await scene.fixture.remove();
  });

  // skill.py only ever runs inside bubblewrap (refusal without it is tested in skill-host.test.ts).
  describe.skipIf(unavailable)(
    'with bubblewrap (skipped without a working bwrap: skill.py is then refused)',
    () => {
      it.each(['spawn', 'system', 'fork', 'posix_spawn'])('%s starts no process', async (tool) => {
        const outcome = await attempt(host, tool, { marker: scene.marker });
        expect(outcome.ok).toBe(false);
        await new Promise((resolve) => setTimeout(resolve, 100));
      });

      it('cannot load native code', async () => {
        expect(await attempt(host, 'native', {})).toMatchObject({ ok: false });
      });

      it('cannot read /etc/passwd, the ssh key or config.toml', async () => {
        for (const [path, secret] of [
          ['/etc/passwd', 'root:'],
          [scene.sshKey, SSH_KEY],
          [scene.configToml, SECRET],
        ] as const) {
          const read = await attempt(host, 'read_file', { path });
          expect(read.ok).toBe(false);
          expect(read.text).not.toContain(secret);
        }
      });

      it('cannot write outside its data folder, and can write inside it', async () => {
        const path = join(scene.outside, 'written');
        expect(await attempt(host, 'write_file', { path })).toMatchObject({ ok: false });
        expect(existsSync(path)).toBe(false);
        expect(await attempt(host, 'write_own_data', {})).toEqual({ ok: true, text: 'mine' });
      });

      it('sees no secret in its environment', async () => {
        const env = await attempt(host, 'environment', {});
        expect(env.text).not.toContain(SECRET);
      });

      it('cannot signal another process of the same user', async () => {
        expect(await attempt(host, 'signal', { pid: scene.bystander.pid })).toMatchObject({
          ok: false,
        });
      });

      it('cannot reach a listener on 127.0.0.1', async () => {
        expect(await attempt(host, 'connect', { port: scene.port })).toMatchObject({ ok: false });
        expect(scene.hits()).toBe(0);
      });
    },
  );
});
