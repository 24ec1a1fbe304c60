/**
 * Records every outbound connection attempt the process makes while it is active, through
 * Node's diagnostics channels: `fetch` (undici), `http`/`https` client requests and raw
 * `net` client sockets. Tests use it to prove that loading and running the embedder sends
 * nothing anywhere. Test support only.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import net from 'node:net';

const CHANNELS = [
  'undici:request:create',
  'http.client.request.start',
  'net.client.socket',
] as const;

export interface EgressEvent {
  channel: (typeof CHANNELS)[number];
  /**
   * Best-effort description of the target: origin + path for requests; for sockets the
   * remote address once it is known (`pending` until the socket resolves or connects).
   */
  target: string;
}

export interface EgressMonitor {
  readonly events: readonly EgressEvent[];
  stop(): void;
}

export function monitorEgress(): EgressMonitor {
  const events: EgressEvent[] = [];
  const handlers = CHANNELS.map((channel) => {
    const handler = (message: unknown) => {
      const event: EgressEvent = { channel, target: describe(message) };
      events.push(event);
      const socket = (message as { socket?: unknown } | null)?.socket;
      if (socket instanceof net.Socket) {
        event.target = 'pending';
        socket.once('lookup', (_error: Error | null, address: string) => (event.target = address));
        socket.once(
          'connect',
          () => (event.target = `${socket.remoteAddress ?? ''}:${socket.remotePort ?? ''}`),
        );
      }
    };
    diagnosticsChannel.subscribe(channel, handler);
    return { channel, handler };
  });
  return {
    events,
    stop() {
      for (const { channel, handler } of handlers) diagnosticsChannel.unsubscribe(channel, handler);
    },
  };
}

function describe(message: unknown): string {
  if (typeof message !== 'object' || message === null) return String(message);
  const record = message as Record<string, unknown>;
  const request = record.request;
  if (typeof request === 'object' && request !== null) {
    const { origin, path, host } = request as Record<string, unknown>;
    return `${stringOf(origin ?? host)}${stringOf(path)}`;
  }
  return Object.keys(record).join(',');
}

function stringOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}
