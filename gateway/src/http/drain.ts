import type { Server, ServerResponse } from 'node:http';

export interface Drain {
  /**
   * From now on every response ends its connection: answers still being written get
   * `Connection: close`, and a keep-alive connection is closed as soon as its last response
   * has finished. Without this, `server.close()` waits for clients' keep-alive sockets until
   * the shutdown timeout.
   */
  begin(): void;
}

/** Tracks the server's in-flight responses so a shutdown can drain them promptly. */
export function trackInFlight(server: Server): Drain {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  const endConnection = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
  };
  const closeIdle = () => server.closeIdleConnections();
  // Shared listeners, added with `on` (a response emits each event once): no closures and no
  // once-wrappers per request.
  function onClose(this: ServerResponse): void {
    inFlight.delete(this);
  }
  function onFinish(): void {
    // The connection turns idle once the response is flushed and the parser reset.
    if (draining) setImmediate(closeIdle);
  }
  server.on('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    if (draining) endConnection(res);
    res.on('close', onClose);
    res.on('finish', onFinish);
  });
  return {
    begin() {
      draining = true;
      for (const res of inFlight) endConnection(res);
    },
  };
}
