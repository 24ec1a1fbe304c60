/**
 * `GET /skills/host` (a WebSocket): one skill host for as long as the socket is open.
 *
 *   gateway → sidecar   first text message: the start frame (start-frame.ts); then text
 *                       messages, each written as is to the host's stdin (JSON lines)
 *   sidecar → gateway   binary messages: the host's stdout bytes, as they come (JSON lines);
 *                       text messages: the sidecar's own, `{"stderr": "…"}`,
 *                       `{"exit": "exit code 3"}` (then close 1000) or `{"detail": "…"}` (a
 *                       refusal, then close 4400 bad frame / 4422 cannot host / 4408 no start)
 *
 * The skill writes only stdout and stderr, so it cannot forge a message of the sidecar's.
 * Closing the socket kills the host; the host ending closes the socket. A binary message from
 * the gateway, or one after the host ended, is refused. A reader too slow for the host's
 * output, stdout and stderr alike (over `maxBufferedBytes` queued), ends the host.
 */
import type { WebSocket } from 'ws';
import type { Logger } from '../logger.ts';
import type { SkillLauncher, SkillProcess } from './launcher.ts';
import { SkillStartError } from './launcher.ts';
import { parseStartFrame } from './start-frame.ts';
import type { StartFrameLimits } from './start-frame.ts';

export interface SkillSocketOptions {
  launcher: SkillLauncher;
  logger: Logger;
  startLimits?: StartFrameLimits;
  /** How long the gateway has to send the start frame. */
  startTimeoutMs?: number;
  /** Output queued for a slow gateway before the host is stopped. */
  maxBufferedBytes?: number;
}

export const CLOSE = { badFrame: 4400, noStart: 4408, cannotHost: 4422 } as const;

export function serveSkillSocket(socket: WebSocket, options: SkillSocketOptions): void {
  const { launcher, logger } = options;
  const maxBuffered = options.maxBufferedBytes ?? 32 * 1024 * 1024;
  let host: SkillProcess | null = null;
  let state: 'waiting' | 'starting' | 'running' | 'ended' = 'waiting';
  const queued: Buffer[] = [];
  let overrun = false;

  const refuse = (code: number, detail: string): void => {
    if (state === 'ended') return;
    state = 'ended';
    host?.kill();
    if (socket.readyState === socket.OPEN) {
      socket.send(JSON.stringify({ detail }));
      socket.close(code, detail.slice(0, 120));
    }
  };
  const startTimer = setTimeout(
    () => refuse(CLOSE.noStart, 'no start frame in time'),
    options.startTimeoutMs ?? 10_000,
  );

  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) return refuse(CLOSE.badFrame, 'send text messages only');
    if (state === 'ended') return;
    if (state === 'waiting') {
      clearTimeout(startTimer);
      const parsed = parseStartFrame(data.toString('utf8'), options.startLimits);
      if (!parsed.ok) return refuse(CLOSE.badFrame, parsed.detail);
      state = 'starting';
      const start = parsed.start;
      /** Whether the gateway keeps up; a host writing faster than it reads is stopped. */
      const keepsUp = (): boolean => {
        if (socket.bufferedAmount <= maxBuffered) return true;
        if (!overrun) {
          overrun = true;
          logger.warn(
            { skill: start.name, maxBufferedBytes: maxBuffered },
            'skill host stopped: the gateway does not read its output fast enough',
          );
        }
        host?.kill();
        return false;
      };
      launcher
        .start(start, {
          stdout(chunk) {
            if (socket.readyState !== socket.OPEN || !keepsUp()) return;
            socket.send(chunk, { binary: true });
          },
          // The same budget as stdout: a host flooding stderr cannot queue more either.
          stderr(chunk) {
            if (socket.readyState !== socket.OPEN || !keepsUp()) return;
            socket.send(JSON.stringify({ stderr: chunk.toString('utf8').slice(-8192) }));
          },
          exit(how) {
            const was = state;
            state = 'ended';
            logger.info({ skill: start.name, how }, 'skill host ended');
            if (was !== 'ended' && socket.readyState === socket.OPEN) {
              socket.send(JSON.stringify({ exit: how }));
              socket.close(1000, 'the skill host ended');
            }
          },
        })
        .then((started) => {
          host = started;
          if (state !== 'starting') {
            started.kill(); // the socket closed while the host was being made
            return;
          }
          state = 'running';
          for (const bytes of queued.splice(0)) started.write(bytes);
          logger.info(
            {
              skill: start.name,
              kind: start.kind,
              network: start.network,
              isolation: launcher.isolation,
            },
            'skill host started',
          );
        })
        .catch((error: unknown) => {
          const cannot = error instanceof SkillStartError;
          if (!cannot) logger.error({ error: String(error) }, 'skill host failed to start');
          refuse(
            cannot ? CLOSE.cannotHost : 1011,
            cannot ? error.message : `the sandbox failed to start the skill host: ${String(error)}`,
          );
        });
      return;
    }
    if (state === 'starting') queued.push(data);
    else host?.write(data);
  });
  socket.on('close', () => {
    clearTimeout(startTimer);
    state = 'ended';
    host?.kill();
  });
  socket.on('error', () => {
    state = 'ended';
    host?.kill();
  });
}
