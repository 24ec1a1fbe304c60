import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_ADDRESS_DEFAULTS, readGatewayAddress } from './gateway-address.ts';
import { configSchema } from './schema.ts';

describe('readGatewayAddress: [gateway] host, port and api_key without the full schema', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-address-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const file = async (text: string) => {
    const path = join(dir, `${Math.random().toString(36).slice(2)}.toml`);
    await writeFile(path, text);
    return path;
  };

  it('has the schema’s defaults', () => {
    const { host, port, api_key } = configSchema.parse({}).gateway;
    expect(GATEWAY_ADDRESS_DEFAULTS).toEqual({ host, port, api_key });
  });

  it('reads the three values as written (references unresolved) and defaults the rest', async () => {
    expect(
      await readGatewayAddress(
        await file(
          '[gateway]\nhost = "0.0.0.0"\nport = 8080\napi_key = "ENV:KEY"\n[models]\nx = 1\n',
        ),
      ),
    ).toEqual({ host: '0.0.0.0', port: 8080, api_key: 'ENV:KEY' });
    expect(await readGatewayAddress(await file('# only comments\n'))).toEqual(
      GATEWAY_ADDRESS_DEFAULTS,
    );
    expect(await readGatewayAddress(join(dir, 'missing.toml'))).toEqual(GATEWAY_ADDRESS_DEFAULTS);
  });

  it.each([
    ['[gateway]\nport = "80"\n', 'gateway.port must be an integer'],
    ['[gateway]\nport = 70000\n', 'gateway.port must be an integer'],
    ['[gateway]\nhost = ""\n', 'gateway.host must be a non-empty string'],
    ['[gateway]\napi_key = 1\n', 'gateway.api_key must be a string'],
    ['gateway = 3\n', '[gateway] must be a table'],
    ['[gateway\n', 'Invalid TOML'],
  ])('names the key of a bad value: %j', async (text, message) => {
    await expect(readGatewayAddress(await file(text))).rejects.toThrow(message);
  });
});
