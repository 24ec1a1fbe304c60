import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { docsRouter } from './docs.ts';
import { apiKeyAuth } from './middleware/api-key.ts';
import { hostCheck, type HostPolicy } from './middleware/hosts.ts';
import { errorHandler, notFoundHandler } from './middleware/errors.ts';
import { cors, type OriginPolicy } from './middleware/origins.ts';
import { mountRoutes } from './mount-routes.ts';
import { routeByMethod } from './method-routers.ts';
import type { PublicPages } from './pages.ts';
import { toExpressPath } from './route.ts';
import { buildOpenApiDocument, type RouteGroup } from './openapi.ts';

export interface HttpAppOptions {
  logger: Logger;
  version: string;
  apiKey: string;
  origins: OriginPolicy;
  /** The names a request's `Host` may carry (DNS rebinding). */
  hosts: HostPolicy;
  bodyLimitBytes: number;
  groups: readonly RouteGroup[];
  /**
   * The document served at /openapi.json, asked for on the first request that needs it (built
   * from `groups` and `version` when absent).
   */
  openApi?: () => Record<string, unknown>;
  /** Pages outside the API (web client, canvas frames), with the paths that need no key. */
  pages?: readonly PublicPages[];
}

/**
 * The Express application: the `Host` check first, then CORS (a preflight is answered here, as
 * it carries no key by design), then auth (before any routing can interpret the path), the JSON
 * body parser with its size limit, the routes of every group,
 * docs, 404, and the one error middleware. Routing is case-sensitive; unknown paths are JSON 404s.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('case sensitive routing', true);
  app.set('query parser', 'simple');

  app.use(function securityHeaders(_req, res, next) {
    // Plain setHeader: these are no Content-Type, so Express's res.set would only add checks.
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
  app.use(hostCheck({ policy: options.hosts, apiKey: options.apiKey }));
  // Signed webhooks authenticate their callers themselves and read their bodies raw: they are
  // routed before the key check and the JSON parser (see WebhookOptions in route.ts).
  for (const group of options.groups) {
    const webhooks = group.routes.filter((route) => route.webhook !== undefined);
    if (webhooks.length === 0) continue;
    const router = express.Router({ caseSensitive: true, mergeParams: true });
    for (const route of webhooks) {
      router[route.method](
        toExpressPath(route.path),
        express.raw({ type: () => true, limit: route.webhook?.limitBytes }),
      );
    }
    mountRoutes(router, webhooks);
    if (group.prefix === '') app.use(router);
    else app.use(group.prefix, router);
  }
  const pages = options.pages ?? [];
  // CORS before the key: a browser's preflight carries no key by design (it asks whether the
  // real request may carry one), so it is answered here; the real request still needs the key,
  // and its 401 carries the CORS headers so the page can read why.
  app.use(cors(options.origins));
  app.use(
    apiKeyAuth({
      apiKey: options.apiKey,
      isPublic: (path) => pages.some((page) => page.isPublic(path)),
    }),
  );
  app.use(express.json({ limit: options.bodyLimitBytes, strict: true }));

  for (const group of options.groups) {
    const router = routeByMethod(group.routes.filter((route) => route.webhook === undefined));
    if (group.prefix === '') app.use(router);
    else app.use(group.prefix, router);
  }
  for (const page of pages) app.use(page.router);
  let document: Record<string, unknown> | undefined;
  const openApi =
    options.openApi ?? (() => (document ??= buildOpenApiDocument(options.groups, options.version)));
  app.use(docsRouter(openApi));

  app.use(notFoundHandler());
  app.use(errorHandler(options.logger));
  return app;
}
