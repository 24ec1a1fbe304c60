import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as TOML from '@decimalturn/toml-patch';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../testing/cli-harness.ts';

const LITERAL_SECRET = 'sk-literal-0123456789';
const ENV_SECRET = 'env-secret-9876543210';
const DB_PASSWORD = 'db-password-55555';

const SECRET_CONFIG = `[gateway]
port = 7500
api_key = "${LITERAL_SECRET}"

[models]
anthropic_api_key = "ENV:HEARTH_TEST_ANTHROPIC_KEY"
openai_api_key = "op://Private/OpenAI/credential"

[memory]
db_path = "postgresql://hearth:${DB_PASSWORD}@db.internal:5432/hearth"
`;

describe('hearth config show', () => {
  let h: Harness;
  let path: string;
  beforeEach(async () => {
    h = await createHarness();
    path = join(h.home, 'config.toml');
  });
  afterEach(() => h.cleanup());

  const env = { HEARTH_TEST_ANTHROPIC_KEY: ENV_SECRET };

  it('prints TOML with a literal secret, an ENV: and an op:// reference redacted', async () => {
    await writeFile(path, SECRET_CONFIG);
    const result = await h.run(['config', 'show'], env);

    expect(result.code).toBe(0);
    for (const secret of [
      LITERAL_SECRET,
      ENV_SECRET,
      DB_PASSWORD,
      'HEARTH_TEST_ANTHROPIC_KEY',
      'op://',
    ]) {
      expect(result.stdout).not.toContain(secret);
    }
    const shown = TOML.parse(result.stdout) as Record<string, Record<string, unknown>>;
    expect(shown.gateway).toMatchObject({ port: 7500, api_key: '(set)', host: '127.0.0.1' });
    expect(shown.models).toMatchObject({
      anthropic_api_key: '(set)',
      openai_api_key: '(set)',
      google_api_key: '',
    });
    expect(shown.memory?.db_path).toBe('postgresql://hearth:(set)@db.internal:5432/hearth');
  });

  it('prints JSON with --json, also redacted', async () => {
    await writeFile(path, SECRET_CONFIG);
    const result = await h.run(['config', 'show', '--json'], env);

    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(LITERAL_SECRET);
    expect(result.stdout).not.toContain(ENV_SECRET);
    const shown = JSON.parse(result.stdout) as Record<string, Record<string, unknown>>;
    expect(shown.gateway?.api_key).toBe('(set)');
    expect(shown.models?.anthropic_api_key).toBe('(set)');
  });

  it('shows the defaults when the file does not exist', async () => {
    const result = await h.run(['config', 'show']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/does not exist: these are the defaults/);
    expect(TOML.parse(result.stdout)).toMatchObject({ gateway: { port: 7432, api_key: '' } });
  });

  it('reports an invalid value with the key that is wrong', async () => {
    await writeFile(path, '[gateway]\nport = "not a number"\n');
    const result = await h.run(['config', 'show']);

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^hearth: Invalid configuration in .*config\.toml: gateway\.port: /,
    );
  });

  it('reports an unknown key by name', async () => {
    await writeFile(path, '[security]\nsecurity = "full"\nask_everything = true\n');
    const result = await h.run(['config', 'show']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown key security.ask_everything');
  });
});
