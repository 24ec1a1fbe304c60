import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

type Document = { paths: Record<string, Record<string, unknown>> };

describe('OpenAPI document', () => {
  let gw: TestGateway;
  let document: Document;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.gateway.whenReady();
    document = (await (await fetch(`${gw.url}/openapi.json`)).json()) as Document;
  });
  afterAll(() => gw.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/health',
        '/ready',
        '/api/v1/status',
        '/api/v1/metrics',
        '/api/v1/metrics/snapshot',
      ]),
    );
  });

  it('lists only routes that exist', async () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations)) {
        const concrete = path.replace(/\{[^}]+\}/g, '1');
        const res = await rawRequest(gw.port, concrete, {
          method: method.toUpperCase(),
          headers: { 'content-type': 'application/json' },
          body: method === 'get' ? undefined : '{}',
        });
        expect(res.body, `${method} ${path}`).not.toContain('"detail":"Not found: ');
      }
    }
  });

  it('is rendered by Swagger UI at /docs and ReDoc at /redoc', async () => {
    const docs = await fetch(`${gw.url}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger-ui');
    const redoc = await fetch(`${gw.url}/redoc`);
    expect(await redoc.text()).toContain('spec-url="/openapi.json"');
    const bundle = await fetch(`${gw.url}/redoc/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
  });
});
