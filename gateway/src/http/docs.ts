import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type Router } from 'express';

const require = createRequire(import.meta.url);
const redocBundles = join(dirname(require.resolve('redoc/package.json')), 'bundles');

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
 * `document` builds on the first request that needs it (not at start-up).
 */
export function docsRouter(document: () => Record<string, unknown>): Router {
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(document());
  });
  router.use('/docs', lazySwaggerUi(document));
  router.get('/redoc', (_req, res) => {
    res.type('html').send(redocPage);
  });
  router.use('/redoc', express.static(redocBundles, { index: false, maxAge: '1d' }));
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
