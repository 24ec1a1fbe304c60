/**
 * A skill host in the sandbox-executor sidecar: a WebSocket to its `GET /skills/host`
 * (token-checked like `/exec`). The first message carries the skill's files and the skill
 * runtime; after it the JSON lines flow as over a local child's stdio: text messages to the
 * host's stdin, binary messages from its stdout, and text messages of the sidecar's own
 * (`{"stderr"}`, `{"exit"}`, `{"detail"}` for a refusal). The sidecar being down or refusing
 * is reported as the host failing: a tool error, never the gateway's.
 */
import WebSocket from 'ws';
import { BodyTooLargeError, readIncomingCapped } from '../../http/outbound/capped-body.ts';
import type { ConnectHost, HostLink } from './host-link.ts';
import { skillHostUrl } from './sidecar-address.ts';

export { skillHostUrl };

export const SANDBOX_TOKEN_HEADER = 'x-sandbox-token';

export interface SidecarLinkOptions {
  /** The sidecar's base URL (`http://sandbox-executor:7433` or `unix:/run/…/sandbox.sock`). */
  url: string;
  token: string;
  /** The start frame (JSON text): read when the link opens. */
  startFrame: () => Promise<string>;
  /**
   * Largest message accepted from the sidecar (bytes): it sends the host's output as it comes
   * (pipe reads of at most 64 KiB) and short texts of its own. A larger one closes the link.
   */
  maxPayload?: number;
  /** Told when the sidecar sent a message over `maxPayload` (a counter). */
  onOversized?: () => void;
}

/** The default `maxPayload`: sixteen times a pipe read. */
export const SIDECAR_MAX_MESSAGE_BYTES = 1024 * 1024;
/** The most of a refusal's body (a non-upgrade answer) read before the link gives up on it. */
const MAX_REFUSAL_BYTES = 16 * 1024;
/** The error `ws` raises for a message over `maxPayload` (it then closes with 1009). */
const TOO_LARGE = 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';

export function sidecarLink(options: SidecarLinkOptions): ConnectHost {
  return (events): HostLink => {
    let ended = false;
    const end = (report: () => void) => {
      if (ended) return;
      ended = true;
      report();
    };
    const queued: string[] = [];
    let queuedBytes = 0;
    /** The start frame's size: what `bufferedAmount` holds of it is not a line. */
    let frameBytes = 0;
    let open = false;
    const maxPayload = options.maxPayload ?? SIDECAR_MAX_MESSAGE_BYTES;
    const socket = new WebSocket(skillHostUrl(options.url), {
      headers: { [SANDBOX_TOKEN_HEADER]: options.token },
      maxPayload,
      handshakeTimeout: 10_000,
    });
    const exited = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('open', () => {
      options.startFrame().then(
        (frame) => {
          if (socket.readyState !== WebSocket.OPEN) return;
          frameBytes = Buffer.byteLength(frame);
          socket.send(frame);
          open = true;
          for (const line of queued.splice(0)) socket.send(line);
          queuedBytes = 0;
        },
        (error: unknown) => {
          end(() => events.failed(`the skill could not be sent to the sandbox: ${String(error)}`));
          socket.terminate();
        },
      );
    });
    socket.on('unexpected-response', (_request, response) => {
      const refusedWith = (detail: string) => {
        end(() =>
          events.failed(
            `the sandbox sidecar refused the skill host (HTTP ${response.statusCode}${detail ? `: ${detail.slice(0, 200)}` : ''})`,
          ),
        );
        socket.terminate();
      };
      // Read as it streams and given up past MAX_REFUSAL_BYTES: the status says enough then
      // (said before the connection is cut, which `ws` reports as an error of its own).
      const cap = { maxBytes: MAX_REFUSAL_BYTES, what: 'the sidecar’s refusal' };
      readIncomingCapped(response, {
        ...cap,
        onOver: () => refusedWith(new BodyTooLargeError(cap.what, cap.maxBytes).message),
      }).then(
        (body) => {
          let detail = '';
          try {
            const parsed = JSON.parse(body.toString('utf8')) as { detail?: unknown };
            if (typeof parsed.detail === 'string') detail = parsed.detail;
          } catch {
            // not our JSON: the status says enough
          }
          refusedWith(detail);
        },
        (error: unknown) => refusedWith(error instanceof Error ? error.message : String(error)),
      );
    });
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (ended) return;
      if (isBinary) return events.stdout(data);
      let message: { stderr?: unknown; exit?: unknown; detail?: unknown };
      try {
        message = JSON.parse(data.toString('utf8')) as typeof message;
      } catch {
        return;
      }
      if (typeof message.stderr === 'string') events.stderr(message.stderr);
      else if (typeof message.exit === 'string') end(() => events.exit(message.exit as string));
      else if (typeof message.detail === 'string')
        end(() => events.failed(`the sandbox refused the skill host: ${message.detail as string}`));
    });
    socket.on('error', (error: Error & { code?: string }) => {
      if (error.code === TOO_LARGE) {
        options.onOversized?.();
        end(() =>
          events.failed(
            `the sandbox sent a message larger than ${maxPayload} bytes; the connection was closed`,
          ),
        );
        return;
      }
      end(() => events.failed(`the sandbox sidecar is unreachable: ${error.message}`));
    });
    socket.on('close', (code) => {
      end(() => events.exit(`the connection to the sandbox closed (${code})`));
    });
    return {
      send(line) {
        if (ended) return;
        if (open) socket.send(line);
        else {
          queued.push(line);
          queuedBytes += Buffer.byteLength(line);
        }
      },
      unread: () => (open ? Math.max(0, socket.bufferedAmount - frameBytes) : queuedBytes),
      kill() {
        if (socket.readyState === WebSocket.CLOSED) return;
        socket.terminate();
      },
      exited,
    };
  };
}
