/**
 * A terminal for the dashboard suites: sessions on a tmux server of their own (-L, so no user
 * session is touched), driven with send-keys and read with capture-pane. Needs tmux (Debian
 * package `tmux`): `tmuxMissing` is the suites' reason to skip.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export const tmuxMissing = spawnSync('tmux', ['-V']).error !== undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A shell command line of `words`, each quoted. */
export const shellLine = (words: readonly string[]): string =>
  words.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');

export interface Terminal {
  tmux: (...args: string[]) => SpawnSyncReturns<string>;
  /** The visible pane; with `escapes`, its colours and styles as SGR sequences. */
  capture: (session: string, escapes?: boolean) => string;
  /** Waits until the pane shows `text`; returns the milliseconds it took. */
  waitFor: (session: string, text: string | RegExp, timeoutMs?: number) => Promise<number>;
  alive: (session: string) => boolean;
  /** Stops the server and every session on it. */
  close: () => void;
}

export function terminal(): Terminal {
  const socket = `hearth-e2e-${randomBytes(4).toString('hex')}`;
  const tmux = (...args: string[]) =>
    spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', timeout: 10_000 });
  const capture = (session: string, escapes = false) =>
    tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', session).stdout;
  return {
    tmux,
    capture,
    waitFor: async (session, text, timeoutMs = 20_000) => {
      const started = Date.now();
      const shows = (pane: string) =>
        typeof text === 'string' ? pane.includes(text) : text.test(pane);
      while (Date.now() - started < timeoutMs) {
        if (shows(capture(session))) return Date.now() - started;
        await sleep(50);
      }
      throw new Error(`"${String(text)}" never appeared; the pane shows:\n${capture(session)}`);
    },
    alive: (session) => tmux('has-session', '-t', session).status === 0,
    close: () => void tmux('kill-server'),
  };
}
