import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { showControls } from '../../text/show-controls.ts';
import { createFrameSender, parseFrame } from '../../ws/send.ts';

export interface TerminalDeps {
  /** `{data_dir}/terminal_history.log`: every command, with a timestamp. */
  historyFile: string;
  workdir: string;
  /** The sanitised environment (no provider keys, no configured secret). */
  env: () => Record<string, string>;
  logger: Logger;
  now: () => number;
}

/**
 * `/ws/terminal`, the embedded terminal: `{type: "run", command}` starts a command (one at a
 * time per socket) in its own process group with a scrubbed environment; output streams as
 * `{type: "output", stream, data}` frames (a slow reader pauses the command), then
 * `{type: "exit", code, signal}`. `{type: "interrupt"}` sends SIGINT to the group (a second one
 * SIGKILL); closing the socket kills it. Commands are not approval-gated (as the spec says) —
 * the socket itself is guarded instead: `Host` and origin checks, a secret always (the API key
 * when set, else the local token in `{data_dir}/terminal.token`), and off by default on a
 * non-loopback bind.
 */
export function terminalSocket(deps: TerminalDeps) {
  return (socket: WebSocket, _request: IncomingMessage): void => {
    const out = createFrameSender(socket);
    let child: ChildProcess | undefined;
    // Until its `close`: `exitCode` stays null for a command a signal ended (an interrupt), so
    // it cannot tell whether one is still running.
    let running = false;
    let interrupts = 0;
    const kill = (signal: NodeJS.Signals) => {
      if (running && child?.pid) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          // already gone
        }
      }
    };
    socket.on('close', () => kill('SIGKILL'));

    socket.on('message', (data) => {
      const frame = parseFrame(data);
      if (!frame)
        return void out.sendNow({
          type: 'error',
          detail: 'Frames must be JSON objects with a type',
        });
      if (frame.type === 'ping') return void out.sendNow({ type: 'pong' });
      if (frame.type === 'interrupt') {
        interrupts += 1;
        kill(interrupts > 1 ? 'SIGKILL' : 'SIGINT');
        return;
      }
      if (frame.type !== 'run')
        return void out.sendNow({
          type: 'error',
          detail: `Unknown frame type '${frame.type}'`,
        });
      const command = typeof frame.command === 'string' ? frame.command.trim() : '';
      if (command === '')
        return void out.sendNow({
          type: 'error',
          detail: 'command: must be a non-empty string',
        });
      if (running)
        return void out.sendNow({
          type: 'error',
          detail: 'A command is already running; interrupt it first',
        });

      interrupts = 0;
      void appendFile(
        deps.historyFile,
        `${new Date(deps.now()).toISOString()} ${showControls(command)}\n`,
        { mode: 0o600 },
      ).catch((error: unknown) =>
        deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'terminal history not written',
        ),
      );
      const started = spawn('/bin/sh', ['-c', command], {
        cwd: deps.workdir,
        env: deps.env(),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      running = true;
      void out.sendNow({ type: 'started', command, pid: started.pid ?? null });
      for (const stream of ['stdout', 'stderr'] as const) {
        const readable = started[stream];
        readable?.setEncoding('utf8');
        readable?.on('data', (chunk: string) => {
          readable.pause();
          void out.send({ type: 'output', stream, data: chunk }).then(() => readable.resume());
        });
      }
      started.on('error', (error) => {
        if (started.pid === undefined) running = false; // it never started
        void out.sendNow({ type: 'error', detail: error.message });
      });
      started.on('close', (code, signal) => {
        running = false;
        void out.sendNow({ type: 'exit', code, signal });
      });
    });
  };
}
