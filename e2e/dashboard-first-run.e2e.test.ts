/**
 * A newcomer's first look at the dashboard: `hearth` alone (cli-ink/bin/hearth.js, what `npx
 * hearth` and a linked `hearth` run, on the compiled CLI) in an 80×24 tmux pane, before and
 * after a gateway process (`node gateway/src/main.ts`) starts. No gateway: it says to run
 * `hearth start`. A gateway whose /status says no model can answer: its first line says so and
 * that `s` runs `hearth setup`; `s` does, in the same process (it once ended there with exit 13,
 * "unsettled top-level await"). A broken config.toml: the TOML error with its line and reason.
 * Needs tmux; without it the suite is skipped and its title says why.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, repoRoot } from './containers/engine.ts';
import { shellLine, terminal, tmuxMissing } from './terminal/tmux.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const term = terminal();

/** The pane's last lines, for failure messages. */
const tail = (session: string) => term.capture(session).trimEnd().split('\n').slice(-8).join('\n');

describe.skipIf(tmuxMissing)(
  `hearth (the dashboard) in tmux on a first run${tmuxMissing ? ' (skipped: tmux is not installed)' : ''}`,
  () => {
    let home = '';
    let broken = '';
    let url = '';
    let config = '';
    let gateway: ChildProcess | undefined;

    beforeAll(async () => {
      // bin/hearth.js runs dist/: build it when the sources changed (npm start does the same).
      const build = spawnSync(process.execPath, ['scripts/build.ts', '--if-changed'], {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 600_000,
      });
      expect(build.status, build.stderr).toBe(0);
      home = await mkdtemp(join(tmpdir(), 'hearth-e2e-first-run-'));
      broken = await mkdtemp(join(tmpdir(), 'hearth-e2e-first-run-broken-'));
      const port = await freePort();
      // Nothing listens there: the local runtime cannot be reached, so no model can answer.
      const nowhere = await freePort();
      url = `http://127.0.0.1:${port}`;
      config = `[gateway]\nport = ${port}\n\n[models]\nollama_base_url = "http://127.0.0.1:${nowhere}"\n`;
      await writeFile(join(home, 'config.toml'), config);
      await writeFile(
        join(broken, 'config.toml'),
        '# a typo\n[gateway]\nhost = "127.0.0.1\nport = 7499\n',
      );
    }, 660_000);

    afterAll(async () => {
      term.close();
      gateway?.kill('SIGTERM');
      await sleep(300);
      await rm(home, { recursive: true, force: true });
      await rm(broken, { recursive: true, force: true });
    });

    /** `hearth` with no arguments in a new session; its exit status stays on screen after it. */
    function hearth(session: string, state: string, columns = 80): void {
      const command = shellLine([
        'env',
        '-u',
        'HEARTH_API_KEY',
        `HOME=${state}`,
        `HEARTH_HOME=${state}`,
        'NO_COLOR=1',
        'TERM=xterm-256color',
        process.execPath,
        join(repoRoot, 'cli-ink/bin/hearth.js'),
      ]);
      const shell = `${command}; echo "[exit $?]"; sleep 600`;
      const started = term.tmux(
        'new-session',
        '-d',
        '-x',
        String(columns),
        '-y',
        '24',
        '-s',
        session,
        shell,
      );
      expect(started.status, started.stderr).toBe(0);
    }

    it('with no gateway running, says so and to run hearth start', async () => {
      hearth('first', home);
      await term.waitFor('first', 'No gateway answers: run hearth start (or npm start)');
      const pane = term.capture('first');
      expect(pane.split('\n')[0]).toContain(`Hearth ${url} · unreachable: no gateway answering`);
      expect(pane).toContain('no gateway yet: run hearth start');
      expect(term.alive('first')).toBe(true);
    }, 60_000);

    it('once a gateway answers whose /status says no model can answer, its first line says "needs setup"', async () => {
      gateway = spawn(process.execPath, [join(repoRoot, 'gateway/src/main.ts')], {
        env: { PATH: process.env.PATH, HOME: home, HEARTH_HOME: home },
        stdio: 'ignore',
      });
      for (let i = 0; i < 600; i += 1) {
        const ready = await fetch(`${url}/ready`).then(
          (r) => r.ok,
          () => false,
        );
        if (ready) break;
        await sleep(100);
      }
      const status = (await (await fetch(`${url}/api/v1/status`)).json()) as {
        model_ready: { ok: boolean; detail: string };
      };
      expect(status.model_ready.ok).toBe(false);
      // The dashboard retries by itself: no key to press.
      await term.waitFor('first', 'needs setup: no model can answer, press s', 30_000);
      const lines = term.capture('first').split('\n');
      expect(lines[0]?.trimEnd()).toBe(`Hearth ${url} · needs setup: no model can answer, press s`);
      // Why, first in the status pane (cut to its half of 80 columns).
      expect(lines[2]).toMatch(/^model: the local runtime \(Ollama\) at/);
      expect(lines.join('\n')).toContain('No provider works yet: press s to run hearth setup');
    }, 90_000);

    it('s runs hearth setup in the same process: the prompt, no crash (exit 13), back after it', async () => {
      term.tmux('send-keys', '-t', 'first', 's');
      await term.waitFor('first', 'Number or name:');
      // Setup waits for the answer: the process did not end under it.
      await sleep(1_000);
      expect(term.capture('first'), tail('first')).not.toContain('[exit');
      expect(term.capture('first')).toContain('Number or name:');
      term.tmux('send-keys', '-t', 'first', '-l', 'ollama');
      term.tmux('send-keys', '-t', 'first', 'Enter');
      await term.waitFor('first', /ollama_base_url \[http:\/\/127\.0\.0\.1:\d+\]:/);
      term.tmux('send-keys', '-t', 'first', 'Enter'); // an empty answer keeps the URL shown
      await term.waitFor('first', 'Model [');
      term.tmux('send-keys', '-t', 'first', 'Enter'); // and the default model
      // Nothing answers at that URL: the live check fails, and setup asks before writing.
      await term.waitFor('first', 'Write the configuration anyway? [y/n]', 30_000);
      term.tmux('send-keys', '-t', 'first', '-l', 'n');
      term.tmux('send-keys', '-t', 'first', 'Enter');
      await term.waitFor('first', 'No provider works yet: press s to run hearth setup', 30_000);
      expect(await readFile(join(home, 'config.toml'), 'utf8')).toBe(config);
      term.tmux('send-keys', '-t', 'first', 'q');
      await term.waitFor('first', '[exit 0]');
      expect(term.capture('first')).not.toContain('unsettled top-level await');
    }, 120_000);

    it('with a TOML syntax error in config.toml, prints the reason, the line and a caret', async () => {
      hearth('broken', broken, 200);
      await term.waitFor('broken', '[exit 1]');
      const pane = term.capture('broken');
      expect(pane).toMatch(
        /hearth: Invalid TOML in .*config\.toml at line 3, column 18: Newline \(0x0A\) not allowed/,
      );
      expect(pane).toContain('3 | host = "127.0.0.1');
      expect(pane).toMatch(/\n {2}\| +\^/);
    }, 60_000);
  },
);
