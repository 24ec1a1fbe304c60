/**
 * A skill host in the sandbox-executor sidecar: a WebSocket to its `GET /skills/host`
 * (token-checked like `/exec`). The first message carries the skill's files and the skill
 * runtime; after it the JSON lines flow as over a local child's stdio: text messages to the
 * host's stdin, binary messages from its stdout, and text messages of the sidecar's own
 * (`{"stderr"}`, `{"exit"}`, `{"detail"}` for a refusal). The sidecar being down or refusing
 * is reported as the host failing: a tool error, never the gateway's.
 */
import WebSocket from 'ws';
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
  /** Largest message accepted from the sidecar (bytes). */
  maxPayload?: number;
}

export function sidecarLink(options: SidecarLinkOptions): ConnectHost {
  return (events): HostLink => {
    let ended = false;
    const end = (report: () => void) => {
      if (ended) return;
      ended = true;
      report();
    };
    const queued: string[] = [];
    let open = false;
    const socket = new WebSocket(skillHostUrl(options.url), {
      headers: { [SANDBOX_TOKEN_HEADER]: options.token },
      maxPayload: options.maxPayload ?? 16 * 1024 * 1024,
      handshakeTimeout: 10_000,
    });
    const exited = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('open', () => {
      options.startFrame().then(
        (frame) => {
          if (socket.readyState !== WebSocket.OPEN) return;
          socket.send(frame);
          open = true;
          for (const line of queued.splice(0)) socket.send(line);
        },
        (error: unknown) => {
          end(() => events.failed(`the skill could not be sent to the sandbox: ${String(error)}`));
          socket.terminate();
        },
      );
    });
    socket.on('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        if (chunks.length < 16) chunks.push(chunk);
      });
      response.on('end', () => {
        let detail = '';
        try {
          const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { detail?: unknown };
          if (typeof parsed.detail === 'string') detail = parsed.detail;
        } catch {
          // not our JSON: the status says enough
        }
        end(() =>
          events.failed(
            `the sandbox sidecar refused the skill host (HTTP ${response.statusCode}${detail ? `: ${detail.slice(0, 200)}` : ''})`,
          ),
        );
        socket.terminate();
      });
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
    socket.on('error', (error) => {
      end(() => events.failed(`the sandbox sidecar is unreachable: ${error.message}`));
    });
    socket.on('close', (code) => {
      end(() => events.exit(`the connection to the sandbox closed (${code})`));
    });
    return {
      send(line) {
        if (ended) return;
        if (open) socket.send(line);
        else queued.push(line);
      },
      kill() {
        if (socket.readyState === WebSocket.CLOSED) return;
        socket.terminate();
      },
      exited,
    };
  };
}
