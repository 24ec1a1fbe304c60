import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import { HearthError } from '../errors.ts';

/**
 * ReDoc's standalone bundle, which the build takes from redoc's published tarball
 * (scripts/build/redoc-assets.ts) into gateway/assets/redoc and copies into dist/.
 */
export const DEFAULT_REDOC_DIR = fileURLToPath(new URL('../../assets/redoc', import.meta.url));
const REDOC_BUNDLE = 'redoc.standalone.js';

const redocPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Hearth API reference</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <redoc spec-url="/openapi.json"></redoc>
    <script src="/redoc/redoc.standalone.js"></script>
  </body>
</html>
`;

/**
 * `/openapi.json`, Swagger UI at `/docs` and ReDoc at `/redoc`, all from one document, which
 * `document` builds on the first request that needs it (not at start-up). Without ReDoc's
 * bundle in `redocDir` (a build that could not fetch it), `/redoc` answers 503 saying so.
 */
export function docsRouter(
  document: () => Record<string, unknown>,
  redocDir: string = DEFAULT_REDOC_DIR,
): Router {
  const router = express.Router();
  const redocBundles = join(redocDir, 'bundles');
  let bundlePresent = false;
  const requireRedoc: express.RequestHandler = (_req, _res, next) => {
    bundlePresent ||= existsSync(join(redocBundles, REDOC_BUNDLE));
    next(
      bundlePresent
        ? undefined
        : new HearthError(
            'unavailable',
            `ReDoc's bundle is missing (${join(redocBundles, REDOC_BUNDLE)}): run 'npm run build' ` +
              'with the npm registry reachable; Swagger UI at /docs has the same reference',
          ),
    );
  };
  router.get('/openapi.json', (_req, res) => {
    res.json(document());
  });
  router.use('/docs', lazySwaggerUi(document));
  router.get('/redoc', requireRedoc, (_req, res) => {
    res.type('html').send(redocPage);
  });
  router.use('/redoc', requireRedoc, express.static(redocBundles, { index: false, maxAge: '1d' }));
  return router;
}

/** Swagger UI is loaded on the first /docs request, not at start-up. */
function lazySwaggerUi(document: () => Record<string, unknown>): Router {
  const router = express.Router();
  let loaded: Promise<Router> | undefined;
  router.use((req, res, next) => {
    loaded ??= import('swagger-ui-express').then(({ default: swaggerUi }) => {
      const ui = express.Router();
      ui.use(swaggerUi.serve, swaggerUi.setup(document(), { customSiteTitle: 'Hearth API' }));
      return ui;
    });
    loaded.then((ui) => ui(req, res, next), next);
  });
  return router;
}
