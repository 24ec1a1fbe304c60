/**
 * The dashboard for real: a gateway process (`node gateway/src/main.ts`, keyed) and
 * `hearth dashboard --url … ` in an 80×24 tmux pane, driven with send-keys and read with
 * capture-pane. Needs tmux (Debian package `tmux`); without it the suite is skipped and its
 * title says why. Its own tmux server (-L) so no user session is touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, repoRoot } from './containers/engine.ts';
import { shellLine, terminal, tmuxMissing } from './terminal/tmux.ts';

const KEY = `e2e-dashboard-${randomBytes(8).toString('hex')}`;
const term = terminal();
const { tmux, capture, waitFor } = term;

/** A foreground colour (SGR 30–37, 90–97) in captured escapes. */
// eslint-disable-next-line no-control-regex -- looking for terminal escapes is the point
const COLOUR = /\u001b\[(?:3|9)\dm/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(tmuxMissing)(
  `hearth dashboard in tmux against a gateway process${tmuxMissing ? ' (skipped: tmux is not installed)' : ''}`,
  () => {
    let home = '';
    let url = '';
    let gateway: ChildProcess | undefined;

    beforeAll(async () => {
      home = await mkdtemp(join(tmpdir(), 'hearth-e2e-dash-'));
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      await writeFile(join(home, 'config.toml'), `[gateway]\nport = ${port}\napi_key = "${KEY}"\n`);
      gateway = spawn(process.execPath, [join(repoRoot, 'gateway/src/main.ts')], {
        env: { PATH: process.env.PATH, HOME: home, HEARTH_HOME: home },
        stdio: 'ignore',
      });
      for (let i = 0; i < 300; i += 1) {
        const ready = await fetch(`${url}/ready`).then(
          (r) => r.ok,
          () => false,
        );
        if (ready) break;
        await sleep(100);
      }
    }, 60_000);

    afterAll(async () => {
      term.close();
      gateway?.kill('SIGTERM');
      await sleep(300);
      await rm(home, { recursive: true, force: true });
    });

    /** Starts the dashboard in a new 80×24 session; returns the ms to its first full frame. */
    async function startDashboard(
      session: string,
      env: string[],
      unset: string[] = [],
    ): Promise<number> {
      const command = shellLine([
        'env',
        ...unset.flatMap((name) => ['-u', name]),
        `HOME=${home}`,
        `HEARTH_HOME=${home}`,
        `HEARTH_API_KEY=${KEY}`,
        'TERM=xterm-256color',
        ...env,
        process.execPath,
        join(repoRoot, 'cli-ink/src/main.ts'),
        'dashboard',
        '--url',
        url,
      ]);
      const started = Date.now();
      expect(tmux('new-session', '-d', '-x', '80', '-y', '24', '-s', session, command).status).toBe(
        0,
      );
      await waitFor(session, 'phase ready');
      return Date.now() - started;
    }

    it('shows the live status, log and approvals panes at 80×24, keyed with HEARTH_API_KEY', async () => {
      const firstFrameMs = await startDashboard('plain', ['NO_COLOR=1']);
      // The figure for the note: process start to the first frame with the gateway's status.
      process.stderr.write(`dashboard first frame with status: ${firstFrameMs} ms\n`);
      const pane = capture('plain');
      // No provider works on this gateway: the header says so first (dashboard-first-run has more).
      expect(pane).toContain(`Hearth ${url} · needs setup: no model can answer, press s`);
      expect(pane).toContain('Approvals (0 pending)');
      expect(pane).toContain('no channels');
      await waitFor('plain', 'INFO  gateway ready'); // the gateway's own log line, over /ws/logs
      await waitFor('plain', 'No provider works yet: press s to run hearth setup');
      for (const line of pane.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    }, 60_000);

    it('uses no colour with NO_COLOR', () => {
      expect(capture('plain', true)).not.toMatch(COLOUR);
    });

    it('? shows the keyboard help; c opens the chat and Enter sends over /ws/chat', async () => {
      tmux('send-keys', '-t', 'plain', '?');
      await waitFor('plain', 'A          approve it and allow it from now on');
      tmux('send-keys', '-t', 'plain', '?');
      await waitFor('plain', 'Approvals (0 pending)');
      tmux('send-keys', '-t', 'plain', 'c');
      tmux('send-keys', '-t', 'plain', '-l', 'hello gateway');
      await waitFor('plain', '> hello gateway');
      tmux('send-keys', '-t', 'plain', 'Enter');
      await waitFor('plain', 'you> hello gateway');
      // No provider works here: the gateway's error comes back in the chat pane.
      await waitFor('plain', '! ');
      tmux('send-keys', '-t', 'plain', 'Escape');
      await waitFor('plain', 'press c to chat');
    }, 60_000);

    it('q quits and gives the terminal back', async () => {
      tmux('send-keys', '-t', 'plain', 'q');
      for (let i = 0; i < 100 && tmux('has-session', '-t', 'plain').status === 0; i += 1)
        await sleep(50);
      expect(tmux('has-session', '-t', 'plain').status).not.toBe(0);
    }, 30_000);

    it('s runs hearth setup in the same terminal, and the dashboard comes back after it', async () => {
      await startDashboard('setup', ['NO_COLOR=1']);
      await waitFor('setup', 'No provider works yet: press s to run hearth setup');
      tmux('send-keys', '-t', 'setup', 's');
      await waitFor('setup', 'Number or name:');
      // The process waits for the answer: Ink let go of the terminal, setup took it back.
      await sleep(500);
      expect(tmux('has-session', '-t', 'setup').status).toBe(0);
      expect(capture('setup')).toContain('Number or name:');
      tmux('send-keys', '-t', 'setup', '-l', 'ollama');
      tmux('send-keys', '-t', 'setup', 'Enter');
      await waitFor('setup', 'ollama_base_url [http://127.0.0.1:11434]:');
      tmux('send-keys', '-t', 'setup', 'Enter');
      await waitFor('setup', 'Model [ollama/llama3.2]:');
      tmux('send-keys', '-t', 'setup', '-l', 'llama3.2:1b');
      tmux('send-keys', '-t', 'setup', 'Enter');
      // No Ollama here (usually): the check fails and setup asks before writing.
      const started = Date.now();
      while (!/Write the configuration anyway|Set an API key/.test(capture('setup'))) {
        if (Date.now() - started > 20_000) throw new Error(capture('setup'));
        await sleep(50);
      }
      if (capture('setup').includes('Write the configuration anyway')) {
        tmux('send-keys', '-t', 'setup', '-l', 'y');
        tmux('send-keys', '-t', 'setup', 'Enter');
        await waitFor('setup', 'Set an API key');
      }
      tmux('send-keys', '-t', 'setup', 'Enter');
      await waitFor('setup', 'phase ready');
      const config = await readFile(join(home, 'config.toml'), 'utf8');
      expect(config).toContain('primary = "ollama/llama3.2:1b"');
      expect(config).toContain('ollama_base_url = "http://127.0.0.1:11434"');
      expect(tmux('has-session', '-t', 'setup').status).toBe(0);
      tmux('send-keys', '-t', 'setup', 'q');
    }, 60_000);

    it('uses colour without NO_COLOR', async () => {
      // chalk turns colour off wherever a CI variable is set (CI runs this suite): a user's
      // terminal has none.
      await startDashboard('colour', [], ['CI', 'CONTINUOUS_INTEGRATION']);
      expect(capture('colour', true)).toMatch(COLOUR);
      tmux('send-keys', '-t', 'colour', 'q');
    }, 60_000);
  },
);
