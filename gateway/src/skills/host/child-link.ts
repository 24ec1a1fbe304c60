/** A skill host as a child process of the gateway, spoken to over its stdin and stdout. */
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { ConnectHost, HostLink } from './host-link.ts';

/** A program to start, already wrapped in its walls. */
export interface ChildCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Bytes the child reads on fd 3 at start (bubblewrap's seccomp filter). */
  fd3?: Buffer;
}

export function childLink(build: () => ChildCommand): ConnectHost {
  return (events): HostLink => {
    const command = build();
    const child = spawn(command.file, command.args, {
      cwd: command.cwd,
      env: command.env,
      stdio: command.fd3 ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
    });
    if (command.fd3) {
      const fd3 = child.stdio[3] as Writable;
      fd3.on('error', () => {}); // the child exiting early is reported by 'exit'
      fd3.end(command.fd3);
    }
    let ended = false;
    const exited = new Promise<void>((resolve) => {
      child.on('error', (error) => {
        if (ended) return;
        ended = true;
        events.failed(`the skill host could not start: ${error.message}`);
        resolve();
      });
      child.on('exit', (code, signal) => {
        if (ended) return resolve();
        ended = true;
        events.exit(signal ? `signal ${signal}` : `exit code ${code}`);
        resolve();
      });
    });
    child.stdout.on('data', (chunk: Buffer) => events.stdout(chunk));
    child.stderr.on('data', (chunk: Buffer) => events.stderr(chunk.toString('utf8')));
    child.stdin.on('error', () => {}); // EPIPE after a crash: reported by 'exit'
    return {
      send: (line) => {
        if (!ended) child.stdin.write(line);
      },
      unread: () => child.stdin.writableLength,
      kill: () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      },
      exited,
      pid: child.pid,
    };
  };
}
