import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, clientSource } from './client-source.ts';

describe('the generated client', () => {
  it("matches the gateway's routes (else: npm run generate:client, then fix the clients)", async () => {
    const committed = await readFile(CLIENT_TYPES_FILE, 'utf8');
    const generated = await clientSource();
    expect(committed === generated, `${CLIENT_TYPES_FILE} is stale`).toBe(true);
  });
});
