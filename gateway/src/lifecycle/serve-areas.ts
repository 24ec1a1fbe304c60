import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { HearthConfig } from '../config/schema.ts';
import { createHttpApp } from '../http/app.ts';
import { createHttpServer } from '../http/server.ts';
import { assertSafeBinding } from '../http/binding.ts';
import { buildOpenApiDocument, type RouteGroup } from '../http/openapi.ts';
import { trackInFlight } from '../http/drain.ts';
import { createHostPolicy } from '../http/middleware/hosts.ts';
import { createOriginPolicy } from '../http/middleware/origins.ts';
import { createSocketRouter, type SocketRouter } from '../ws/socket-router.ts';
import { closeAreas, type Area } from './area.ts';
import type { EarlyListener } from './early-listener.ts';
import { listeningAddress, type ListeningAddress } from './listening-address.ts';

export type { ListeningAddress };

export interface ServeAreasOptions {
  gateway: HearthConfig['gateway'];
  version: string;
  logger: Logger;
  /** Told of each WebSocket upgrade refused because too many are open. */
  onSocketRefused?: () => void;
}

/**
 * The generic half of the gateway: one HTTP server and one WebSocket router for a list of
 * areas. It refuses an unsafe binding (a non-loopback address without a key), mounts every area's routes (root routes, then `/api/v1`), registers its sockets
 * behind the shared Host, key and origin checks, and on shutdown drains the areas, the
 * in-flight requests (up to `shutdown_timeout_ms`), then closes the areas in reverse order.
 */
export function serveAreas(areas: readonly Area[], options: ServeAreasOptions) {
  const { gateway: settings, logger } = options;
  assertSafeBinding(settings);
  const hosts = createHostPolicy({
    bindHost: settings.host,
    corsOrigins: settings.cors_origins,
    allowedHosts: settings.allowed_hosts,
  });
  const origins = createOriginPolicy({
    host: settings.host,
    port: () => (server.address() as AddressInfo | null)?.port ?? settings.port,
    extra: settings.cors_origins,
    hosts,
  });
  const groups: RouteGroup[] = [
    { prefix: '', routes: areas.flatMap((area) => area.rootRoutes ?? []) },
    { prefix: '/api/v1', routes: areas.flatMap((area) => area.routes ?? []) },
  ];
  // Built on the first request for it (or `gateway.openApi`), not before the port is bound.
  let document: Record<string, unknown> | undefined;
  const openApi = () => (document ??= buildOpenApiDocument(groups, options.version));
  const app: Express = createHttpApp({
    logger,
    version: options.version,
    apiKey: settings.api_key,
    origins,
    hosts,
    bodyLimitBytes: settings.body_limit_bytes,
    pages: areas.flatMap((area) => (area.pages ? [area.pages] : [])),
    groups,
    openApi,
  });
  const server: Server = createHttpServer(app);
  server.keepAliveTimeout = 65_000;
  const drain = trackInFlight(server);
  const sockets: SocketRouter = createSocketRouter({
    origins,
    hosts,
    apiKey: settings.api_key,
    logger: logger.child({ area: 'ws' }),
    onRefused: options.onSocketRefused,
  });
  sockets.attach(server);
  for (const area of areas) {
    for (const socket of area.sockets ?? [])
      sockets.register(socket.path, socket.handler, socket.options);
  }

  /**
   * Binds, or takes over the listening socket of `listenOn` (the early listener, which then
   * accepts nothing more); `onBound` runs before the event loop can hand the server its first
   * connection.
   */
  async function listen(
    onBound?: (address: ListeningAddress) => void,
    listenOn?: EarlyListener,
  ): Promise<ListeningAddress> {
    for (const area of areas) await area.prepare?.();
    if (listenOn !== undefined) {
      await listenOn.handOver(server);
      const bound = listeningAddress(server);
      onBound?.(bound);
      return bound;
    }
    return new Promise<ListeningAddress>((resolve, reject) => {
      server.once('error', reject);
      server.listen(settings.port, settings.host, () => {
        server.off('error', reject);
        const bound = listeningAddress(server);
        onBound?.(bound);
        resolve(bound);
      });
    });
  }

  /** Stops accepting, drains, then closes the areas; `startup` settles first (never rejects). */
  async function close(startup: Promise<void> | undefined): Promise<void> {
    const draining = Promise.all(areas.map(async (area) => await area.drain?.()));
    sockets.close();
    drain.begin();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timeout = new Promise<'timeout'>((resolve) => {
      setTimeout(resolve, settings.shutdown_timeout_ms, 'timeout').unref();
    });
    if ((await Promise.race([closed, timeout])) === 'timeout') {
      logger.warn('shutdown timeout: closing remaining connections');
      server.closeAllConnections();
      await closed;
    }
    await startup?.catch(() => undefined);
    await draining;
    await closeAreas(areas, (area, error) => logger.error({ err: error, area }, 'close failed'));
    logger.info('gateway stopped');
  }

  return { app, server, sockets, openApi, listen, close };
}
