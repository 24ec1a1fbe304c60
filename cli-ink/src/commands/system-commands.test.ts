import { spawnSync } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseConfig } from '@hearth/gateway/config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProgramResult, RunProgram } from '../deps.ts';
import { runProgram } from '../run-program.ts';
import { createHarness, freePort, type Harness } from '../testing/cli-harness.ts';
import { compareVersions } from './update.ts';

/** A RunProgram that records calls and answers from a table (`command args…` → result). */
function fakePrograms(answers: Record<string, Partial<ProgramResult>> = {}) {
  const calls: string[] = [];
  const run: RunProgram = (command, args) => {
    const line = [command, ...args].join(' ');
    calls.push(line);
    const answer = answers[line] ?? answers[command] ?? {};
    return Promise.resolve({ code: 0, stdout: '', stderr: '', ...answer });
  };
  return { calls, run };
}

/** Debian's docker-compose (1.29), to check a generated bundle; the test says so when it is missing. */
const hasCompose = spawnSync('docker-compose', ['version'], { timeout: 10_000 }).status === 0;

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await writeFile(join(h.home, 'config.toml'), '[gateway]\nport = 7999\n');
});
afterEach(() => h.cleanup());

describe('hearth open', () => {
  it('opens the web client with xdg-open on a Linux desktop', async () => {
    const programs = fakePrograms();
    const result = await h.run(['open'], { DISPLAY: ':0' }, undefined, {
      runProgram: programs.run,
    });
    expect(result).toEqual({
      code: 0,
      stdout: 'Opened http://127.0.0.1:7999/ in the browser.\n',
      stderr: '',
    });
    expect(programs.calls).toEqual(['xdg-open http://127.0.0.1:7999/']);
  });

  it('uses open on macOS', async () => {
    const programs = fakePrograms();
    await h.run(['open'], {}, undefined, { runProgram: programs.run, platform: 'darwin' });
    expect(programs.calls).toEqual(['open http://127.0.0.1:7999/']);
  });

  it('prints the URL when headless (no DISPLAY), running nothing', async () => {
    const programs = fakePrograms();
    const result = await h.run(['open'], {}, undefined, { runProgram: programs.run });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('http://127.0.0.1:7999/\n');
    expect(result.stderr).toContain('no desktop here');
    expect(programs.calls).toEqual([]);
    const json = await h.run(['open', '--json'], {}, undefined, { runProgram: programs.run });
    expect(JSON.parse(json.stdout)).toMatchObject({ url: 'http://127.0.0.1:7999/', opened: false });
  });

  it('exits 1 when the opener cannot run, still printing the URL', async () => {
    const programs = fakePrograms({ 'xdg-open': { code: null, error: 'spawn xdg-open ENOENT' } });
    const result = await h.run(['open'], { DISPLAY: ':0' }, undefined, {
      runProgram: programs.run,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('http://127.0.0.1:7999/\n');
    expect(result.stderr).toContain('could not run xdg-open (spawn xdg-open ENOENT)');
  });
});

describe('hearth tray', () => {
  it('says at once that it is not offered and why (exit 1), on Linux and macOS, also as JSON', async () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const result = await h.run(['tray'], {}, undefined, { platform });
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toBe(
        'hearth: hearth tray is not offered: no maintained Node library draws a tray icon ' +
          '(StatusNotifier on Linux desktops, the macOS menu bar) without fetching a native ' +
          'helper program at install time, which this project does not ship; use hearth ' +
          'dashboard in a terminal, or hearth open for the web client\n',
      );
    }
    const json = await h.run(['tray', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      available: false,
      reason: expect.stringContaining('hearth tray is not offered'),
    });
  });

  it('is not in the help', async () => {
    const help = await h.run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).not.toMatch(/^ {2}tray\b/m);
  });
});

describe('hearth update (a git checkout; its remote a local bare repository)', () => {
  const git = (cwd: string, ...args: string[]) => {
    const result = spawnSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.org',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.org',
        GIT_CONFIG_GLOBAL: '/dev/null',
      },
    });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };

  /** A Hearth-shaped checkout cloned from a bare repository that has these tags. */
  async function checkout(tags: string[]): Promise<{ app: string; bin: string; bare: string }> {
    const bare = join(h.home, 'hearth.git');
    const seed = join(h.home, 'seed');
    git(h.home, 'init', '-q', '--bare', '-b', 'main', bare);
    await mkdir(join(seed, 'cli-ink', 'bin'), { recursive: true });
    await writeFile(join(seed, 'package.json'), '{"name":"hearth","private":true}\n');
    await writeFile(join(seed, 'cli-ink', 'bin', 'hearth.js'), '// the CLI\n');
    git(seed, 'init', '-q', '-b', 'main');
    git(seed, 'add', '.');
    git(seed, 'commit', '-q', '-m', 'first');
    for (const tag of tags) git(seed, 'tag', tag);
    git(seed, 'push', '-q', '--tags', bare, 'main');
    const app = join(h.home, 'app');
    git(h.home, 'clone', '-q', bare, app);
    return { app, bin: join(app, 'cli-ink', 'bin', 'hearth.js'), bare };
  }

  const update = (args: string[], bin: string) =>
    h.run(['update', ...args], {}, undefined, { binPath: bin, runProgram });

  it('finds the newest release tag at the remote and prints exactly what updating takes', async () => {
    const { app, bin, bare } = await checkout([
      'v0.1.0',
      'v0.2.0',
      'v0.10.0',
      'v1.0.0-rc.1',
      'nightly',
    ]);
    const result = await update([], bin);
    expect(result).toEqual({
      code: 0,
      stdout:
        `Hearth 0.10.0 is available at origin (${bare}) (this is 0.1.0).\n` +
        `To update this checkout, run:\n  cd ${app} && git fetch origin --tags && git checkout v0.10.0 && npm ci && npm run build\n` +
        'then restart the gateway (hearth stop; hearth start).\n',
      stderr: '',
    });
    expect(result.stdout).not.toContain('npm install -g');

    const check = await update(['--check'], bin);
    expect(check.stdout).toBe(`Hearth 0.10.0 is available at origin (${bare}) (this is 0.1.0).\n`);

    const json = await update(['--json'], bin);
    expect(JSON.parse(json.stdout)).toEqual({
      current: '0.1.0',
      latest: '0.10.0',
      update_available: true,
      source: 'git',
      checkout: app,
      remote: 'origin',
      url: bare,
      command: `cd ${app} && git fetch origin --tags && git checkout v0.10.0 && npm ci && npm run build`,
      local_changes: false,
    });
  });

  it('says when this is the newest release', async () => {
    const newest = await checkout(['v0.0.9', 'v0.1.0']);
    expect(await update([], newest.bin)).toEqual({
      code: 0,
      stdout: `Hearth 0.1.0 is the newest release at origin (${newest.bare}).\n`,
      stderr: '',
    });
  });

  it('a remote with no release tags: nothing to update to', async () => {
    const { bin, bare } = await checkout(['nightly']);
    expect((await update([], bin)).stdout).toBe(
      `origin (${bare}) has no release tags (vX.Y.Z): there is nothing to update to from Hearth 0.1.0.\n`,
    );
  });

  it('mentions uncommitted changes that would get in the way', async () => {
    const { app, bin } = await checkout(['v0.2.0']);
    await writeFile(join(app, 'package.json'), '{"name":"hearth","private":true,"edited":1}\n');
    const result = await update([], bin);
    expect(result.stdout).toContain('The checkout has uncommitted changes');
  });

  it('without network it says it cannot check, and why (exit 1)', async () => {
    const { app, bin } = await checkout(['v0.2.0']);
    const port = await freePort();
    git(app, 'remote', 'set-url', 'origin', `http://127.0.0.1:${port}/hearth.git`);
    const result = await update([], bin);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^hearth: cannot check for updates: git could not ask origin \\(http://127\\.0\\.0\\.1:${port}/hearth\\.git\\) for its release tags: .*(connect|Connection refused)`,
      ),
    );
  });

  it('a copy that is no git checkout cannot be checked: it says so and never advises npm', async () => {
    const copy = join(h.home, 'copy');
    await mkdir(join(copy, 'cli-ink', 'bin'), { recursive: true });
    await writeFile(join(copy, 'package.json'), '{}\n');
    await writeFile(join(copy, 'cli-ink', 'bin', 'hearth.js'), '\n');
    const result = await update([], join(copy, 'cli-ink', 'bin', 'hearth.js'));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `hearth: cannot check for updates: this copy of Hearth (${copy}) is not a git checkout. ` +
        'Hearth is updated from the git repository it was cloned from, and it has no npm package ' +
        'of its own (the npm package "hearth" is an unrelated project): update it the way you ' +
        'installed it.\n',
    );
    expect(result.stderr).not.toContain('npm install');
  });

  it('a Hearth copy inside another project’s git repository is not taken for a checkout', async () => {
    const project = join(h.home, 'project');
    const nested = join(project, 'node_modules', 'hearth');
    await mkdir(join(nested, 'cli-ink', 'bin'), { recursive: true });
    await writeFile(join(nested, 'package.json'), '{}\n');
    await writeFile(join(nested, 'cli-ink', 'bin', 'hearth.js'), '\n');
    git(h.home, 'init', '-q', project);
    const result = await update([], join(nested, 'cli-ink', 'bin', 'hearth.js'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`this copy of Hearth (${nested}) is not a git checkout`);
  });

  it('compares versions numerically, a pre-release before its release', () => {
    expect(compareVersions('0.10.0', '0.9.9')).toBe(1);
    expect(compareVersions('1.0.0-rc.1', '1.0.0')).toBe(-1);
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0);
  });
});

describe('hearth autostart (systemd, injected folders and systemctl)', () => {
  it('enable writes a user unit that starts this CLI with this config, then enables it', async () => {
    const programs = fakePrograms();
    const env = { HOME: h.home, XDG_CONFIG_HOME: join(h.home, 'xdg') };
    const result = await h.run(['autostart', 'enable'], env, undefined, {
      runProgram: programs.run,
    });
    expect(result.code).toBe(0);
    const file = join(h.home, 'xdg', 'systemd', 'user', 'hearth.service');
    const unit = await readFile(file, 'utf8');
    expect(unit).toContain('[Service]');
    expect(unit).toMatch(/^ExecStart="[^"]+" "[^"]+main\.ts" -c "[^"]+config\.toml" start$/m);
    expect(unit).toContain(`Environment="HEARTH_HOME=${h.home}"`);
    expect(unit).toContain('WantedBy=default.target');
    expect(programs.calls).toEqual([
      'systemctl --user daemon-reload',
      'systemctl --user enable hearth.service',
    ]);

    const status = await h.run(['autostart', 'status', '--json'], env, undefined, {
      runProgram: programs.run,
    });
    expect(JSON.parse(status.stdout)).toEqual({
      installed: true,
      enabled: true,
      kind: 'systemd',
      file,
    });

    const disabled = await h.run(['autostart', 'disable'], env, undefined, {
      runProgram: programs.run,
    });
    expect(disabled.stdout).toBe(`Autostart disabled; removed ${file}\n`);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
    expect(programs.calls.slice(-2)).toEqual([
      'systemctl --user disable hearth.service',
      'systemctl --user daemon-reload',
    ]);
  });

  it('quotes paths for systemd: spaces, quotes, % and $ cannot change the command', async () => {
    const programs = fakePrograms();
    const home = join(h.home, 'a "b" 100% $HOME');
    await mkdir(home, { recursive: true });
    await h.run(
      ['-c', join(home, 'config.toml'), 'autostart', 'enable'],
      { HOME: h.home },
      undefined,
      {
        runProgram: programs.run,
      },
    );
    const unit = await readFile(
      join(h.home, '.config', 'systemd', 'user', 'hearth.service'),
      'utf8',
    );
    expect(unit).toContain('-c "' + `${h.home}/a \\"b\\" 100%% $$HOME/config.toml` + '" start');
  });

  it('reports a systemctl failure with its message (exit 1)', async () => {
    const programs = fakePrograms({
      'systemctl --user enable hearth.service': { code: 1, stderr: 'Failed to connect to bus' },
    });
    const result = await h.run(['autostart', 'enable'], { HOME: h.home }, undefined, {
      runProgram: programs.run,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'systemctl --user enable hearth.service failed: Failed to connect to bus',
    );
  });

  it('writes a launchd agent on macOS', async () => {
    const programs = fakePrograms();
    const result = await h.run(['autostart', 'enable'], { HOME: h.home }, undefined, {
      runProgram: programs.run,
      platform: 'darwin',
    });
    expect(result.code).toBe(0);
    const file = join(h.home, 'Library', 'LaunchAgents', 'dev.hearth.gateway.plist');
    const plist = await readFile(file, 'utf8');
    expect(plist).toContain('<string>dev.hearth.gateway</string>');
    expect(plist).toContain('<key>RunAtLoad</key>');
    expect(plist).toContain('<string>start</string>');
    expect(programs.calls).toEqual([`launchctl load -w ${file}`]);
  });

  it('is refused on a system with neither (exit 1)', async () => {
    const result = await h.run(['autostart', 'status'], { HOME: h.home }, undefined, {
      platform: 'win32',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('autostart is not available on win32');
  });
});

describe('hearth cloud', () => {
  it('generate writes a compose + Caddy bundle with a random API key that the config requires', async () => {
    const out = join(h.home, 'bundle');
    const result = await h.run([
      'cloud',
      'generate',
      '--domain',
      'agent.example.org',
      '--email',
      'me@example.org',
      '--out',
      out,
    ]);
    expect(result.code).toBe(0);
    const compose = await readFile(join(out, 'docker-compose.yml'), 'utf8');
    expect(compose).toContain('image: caddy:2');
    // The image the project builds (Dockerfile, scripts/build-images.sh), never pulled.
    expect(compose).not.toContain('ghcr.io');
    expect(compose.match(/image: hearth:local\n {4}pull_policy: never\n/g)).toHaveLength(2);
    expect(result.stdout).toContain(
      'The gateway image hearth:local is not published anywhere: build it on the server, in a Hearth checkout:\n  docker build -t hearth:local .\n',
    );
    // The image's entrypoint runs the gateway; a `command` would be handed to it as arguments.
    expect(compose).not.toMatch(/^ {4}command:/m);
    // The config seeds the volume once (readable by the container's user: it holds no secret).
    expect(compose).toContain('./config.toml:/seed/config.toml:ro');
    expect((await stat(join(out, 'config.toml'))).mode & 0o777).toBe(0o644);
    expect(compose).toContain('"443:443"');
    const caddy = await readFile(join(out, 'Caddyfile'), 'utf8');
    expect(caddy).toContain('agent.example.org {');
    expect(caddy).toContain('reverse_proxy gateway:7432');
    expect(caddy).toContain('email me@example.org');
    const env = await readFile(join(out, '.env'), 'utf8');
    const key = /^HEARTH_API_KEY=([A-Za-z0-9_-]{43})\n$/.exec(env)?.[1];
    expect(key).toBeDefined();
    expect(result.stdout).not.toContain(key!);
    expect((await stat(join(out, '.env'))).mode & 0o777).toBe(0o600);
    const config = parseConfig(await readFile(join(out, 'config.toml'), 'utf8'), 'config.toml');
    expect(config.gateway).toMatchObject({
      host: '0.0.0.0',
      api_key: 'ENV:HEARTH_API_KEY',
      allowed_hosts: ['agent.example.org'],
    });

    const again = await h.run(['cloud', 'generate', '--domain', 'agent.example.org', '--out', out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('--force overwrites');
    await h.run(['cloud', 'generate', '--domain', 'agent.example.org', '--out', out, '--force']);
    expect(await readFile(join(out, '.env'), 'utf8')).not.toBe(env);
  });

  it('generate --image uses that image, pulled as usual, with no build step', async () => {
    const out = join(h.home, 'pulled');
    const result = await h.run([
      'cloud',
      'generate',
      '--domain',
      'agent.example.org',
      '--out',
      out,
      '--image',
      'registry.example.org/me/hearth:0.1.0',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      image: 'registry.example.org/me/hearth:0.1.0',
      build_command: null,
    });
    const compose = await readFile(join(out, 'docker-compose.yml'), 'utf8');
    expect(compose).toContain('image: registry.example.org/me/hearth:0.1.0');
    expect(compose).not.toContain('pull_policy');
  });

  it.skipIf(!hasCompose)(
    `the generated docker-compose.yml is valid for docker-compose (config -q)${hasCompose ? '' : ' (skipped: docker-compose is not installed)'}`,
    async () => {
      const out = join(h.home, 'valid');
      expect(
        (await h.run(['cloud', 'generate', '--domain', 'agent.example.org', '--out', out])).code,
      ).toBe(0);
      const checked = spawnSync(
        'docker-compose',
        ['-f', join(out, 'docker-compose.yml'), 'config', '-q'],
        {
          encoding: 'utf8',
          cwd: out,
          timeout: 30_000,
        },
      );
      expect(checked.stderr).toBe('');
      expect(checked.status).toBe(0);
    },
  );

  it.each([
    ['https://agent.example.org'],
    ['agent.example.org/x'],
    ['evil.org\nother'],
    ['localhost'],
  ])('generate refuses a domain that is not one (%j) with exit 2', async (domain) => {
    const result = await h.run([
      'cloud',
      'generate',
      '--domain',
      domain,
      '--out',
      join(h.home, 'b'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--domain: not a domain name');
  });

  it('check reports Docker, compose and ports; exit 1 when something is missing', async () => {
    const programs = fakePrograms({ docker: { code: null, error: 'spawn docker ENOENT' } });
    const result = await h.run(['cloud', 'check', '--json'], {}, undefined, {
      runProgram: programs.run,
    });
    expect(result.code).toBe(1);
    const body = JSON.parse(result.stdout) as {
      ready: boolean;
      checks: { name: string; ok: boolean }[];
    };
    expect(body.ready).toBe(false);
    expect(body.checks.map((c) => c.name)).toEqual([
      'docker',
      'docker compose',
      'port 80',
      'port 443',
    ]);
    expect(body.checks[0]).toMatchObject({ ok: false, detail: 'not found (spawn docker ENOENT)' });
  });

  it('status lists the bundle’s containers from docker compose ps', async () => {
    const out = join(h.home, 'bundle');
    await h.run(['cloud', 'generate', '--domain', 'agent.example.org', '--out', out]);
    const ps = [
      '{"Service":"gateway","State":"running","Status":"Up 2 minutes"}',
      '{"Service":"caddy","State":"exited","Status":"Exited (1)"}',
    ].join('\n');
    const programs = fakePrograms({ docker: { stdout: ps } });
    const result = await h.run(['cloud', 'status', '--dir', out, '--json'], {}, undefined, {
      runProgram: programs.run,
    });
    expect(JSON.parse(result.stdout)).toEqual({
      dir: out,
      services: [
        { service: 'gateway', state: 'running', status: 'Up 2 minutes' },
        { service: 'caddy', state: 'exited', status: 'Exited (1)' },
      ],
    });
    expect(programs.calls).toEqual([
      `docker compose -f ${join(out, 'docker-compose.yml')} ps --all --format json`,
    ]);
    const missing = await h.run(['cloud', 'status', '--dir', join(h.home, 'none')]);
    expect(missing.code).toBe(1);
  });
});
