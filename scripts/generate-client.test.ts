import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, clientSource, isGeneratedFrom } from './client-source.ts';

describe('the generated client', () => {
  it("matches the gateway's routes (else: npm run generate:client, then fix the clients)", async () => {
    const committed = await readFile(CLIENT_TYPES_FILE, 'utf8');
    const generated = await clientSource();
    expect(committed === generated, `${CLIENT_TYPES_FILE} is stale`).toBe(true);
  });
});

describe('isGeneratedFrom (the build skips generating when it holds)', () => {
  const document = {
    openapi: '3.1.0',
    info: { title: 'test', version: '1' },
    paths: {
      '/ping': {
        get: {
          operationId: 'ping',
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { type: 'string' } } },
            },
          },
        },
      },
    },
  };

  it('holds for the file generated from the same document', async () => {
    const text = await clientSource(document);
    expect(isGeneratedFrom(text, structuredClone(document))).toBe(true);
  });

  it('fails for another document, edited types, an edited header or no record', async () => {
    const text = await clientSource(document);
    const changed = structuredClone(document);
    changed.paths['/ping'].get.operationId = 'pong';
    expect(isGeneratedFrom(text, changed)).toBe(false);
    expect(isGeneratedFrom(text.replace('"/ping"', '"/pong"'), document)).toBe(false);
    expect(isGeneratedFrom(`${text}\n`, document)).toBe(false);
    expect(isGeneratedFrom(text.replace('Do not edit', 'Edit'), document)).toBe(false);
    expect(isGeneratedFrom(text.replace(/ \* Generated from: .*\n/, ''), document)).toBe(false);
    expect(isGeneratedFrom('', document)).toBe(false);
  });
});
