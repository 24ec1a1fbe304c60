import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_TOML } from './default-file.ts';
import { loadConfig, parseConfig, redactSecrets } from './load.ts';
import { createOnePasswordReader } from './one-password.ts';
import { defaultConfig } from './schema.ts';
import type { SecretResolverDeps } from './secrets.ts';
import { updateConfigFile } from './write.ts';

const noSecrets: SecretResolverDeps = {
  env: {},
  readOnePassword: () => Promise.reject(new Error('op must not be called')),
};

describe('configuration', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-config-'));
    file = join(dir, 'config.toml');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  describe('defaults', () => {
    it('an absent file gives every default', async () => {
      const loaded = await loadConfig(file, noSecrets);
      expect(loaded.exists).toBe(false);
      expect(loaded.config.gateway).toMatchObject({ host: '127.0.0.1', port: 7432, api_key: '' });
      expect(loaded.config.memory).toMatchObject({ short_term_ttl: 3600, long_term_days: 90 });
      expect(loaded.config.security).toMatchObject({ security: 'allowlist', ask: 'on-miss' });
      expect(loaded.config.models.ollama_base_url).toBe('http://127.0.0.1:11434');
    });

    it('the commented default file parses to exactly the defaults', () => {
      expect(parseConfig(DEFAULT_CONFIG_TOML, 'default')).toEqual(defaultConfig());
    });

    it('a partial section keeps the defaults of the keys it omits', () => {
      const config = parseConfig('[gateway]\nport = 8000\n', file);
      expect(config.gateway.port).toBe(8000);
      expect(config.gateway.host).toBe('127.0.0.1');
    });

    it('memory.long_term_days 0 is valid (long-term memories are kept forever)', () => {
      expect(parseConfig('[memory]\nlong_term_days = 0\n', file).memory.long_term_days).toBe(0);
    });
  });

  describe('a bad value names its key and the file', () => {
    it.each([
      ['[gateway]\nport = "eighty"\n', /Invalid configuration in .*config\.toml: gateway\.port: /],
      ['[gateway]\nport = 70000\n', /gateway\.port: /],
      ['[memory]\nshort_term_ttl = -5\n', /memory\.short_term_ttl: /],
      ['[memory]\nlong_term_days = -1\n', /memory\.long_term_days: /],
      ['[memory]\nlong_term_days = 1.5\n', /memory\.long_term_days: /],
      ['[security]\nask = "sometimes"\n', /security\.ask: /],
      ['[gateway]\nprot = 80\n', /unknown key gateway\.prot/],
      ['[gateway\nport = 1\n', /Invalid TOML in .*config\.toml/],
      // Rule 5: "There is no configuration for backend, embedding model, chunk size or top_k."
      ['[memory]\nbackend = "redis"\n', /unknown key memory\.backend/],
      ['[memory]\nembedding_model = "x/y"\n', /unknown key memory\.embedding_model/],
      ['[memory]\nchunk_size = 512\n', /unknown key memory\.chunk_size/],
      ['[memory]\ntop_k = 20\n', /unknown key memory\.top_k/],
    ])('%j', async (text, message) => {
      await writeFile(file, text);
      await expect(loadConfig(file, noSecrets)).rejects.toThrow(message);
    });
  });

  describe('secret references', () => {
    it('ENV:NAME reads the environment', async () => {
      await writeFile(file, '[models]\nanthropic_api_key = "ENV:MY_ANTHROPIC"\n');
      const loaded = await loadConfig(file, { ...noSecrets, env: { MY_ANTHROPIC: 'sk-ant-123' } });
      expect(loaded.config.models.anthropic_api_key).toBe('sk-ant-123');
      expect(loaded.raw.models.anthropic_api_key).toBe('ENV:MY_ANTHROPIC');
    });

    it('ENV: with an unset variable is an error naming the key and the variable', async () => {
      await writeFile(file, '[gateway]\napi_key = "ENV:HEARTH_KEY"\n');
      await expect(loadConfig(file, noSecrets)).rejects.toThrow(
        'gateway.api_key: environment variable HEARTH_KEY is not set',
      );
    });

    it('op:// is resolved with `op read` found on PATH', async () => {
      const bin = join(dir, 'bin');
      await mkdir(bin);
      await writeFile(
        join(bin, 'op'),
        '#!/bin/sh\n[ "$1" = read ] || exit 2\n[ "$3" = "op://Private/OpenAI/credential" ] && printf "sk-from-op" && exit 0\necho "[ERROR] item not found" >&2\nexit 1\n',
      );
      await chmod(join(bin, 'op'), 0o755);
      const env = { PATH: `${bin}${delimiter}/usr/bin${delimiter}/bin` };
      await writeFile(file, '[models]\nopenai_api_key = "op://Private/OpenAI/credential"\n');
      const loaded = await loadConfig(file, { env, readOnePassword: createOnePasswordReader(env) });
      expect(loaded.config.models.openai_api_key).toBe('sk-from-op');

      await writeFile(file, '[models]\nopenai_api_key = "op://Private/Missing/credential"\n');
      await expect(
        loadConfig(file, { env, readOnePassword: createOnePasswordReader(env) }),
      ).rejects.toThrow(
        /models\.openai_api_key: could not resolve op:\/\/Private\/Missing\/credential/,
      );
    });

    it('op:// without the op CLI says so clearly', async () => {
      const env = { PATH: join(dir, 'empty-bin') };
      await writeFile(file, '[models]\nopenai_api_key = "op://Private/OpenAI/credential"\n');
      await expect(
        loadConfig(file, { env, readOnePassword: createOnePasswordReader(env) }),
      ).rejects.toThrow(
        "models.openai_api_key: could not resolve op://Private/OpenAI/credential: the 'op' CLI is not installed or not on PATH",
      );
    });

    it('redaction hides every secret value', () => {
      const config = parseConfig(
        '[gateway]\napi_key = "topsecret"\n[models]\ngroq_api_key = "gsk_1"\n',
        file,
      );
      const shown = JSON.stringify(redactSecrets(config));
      expect(shown).not.toContain('topsecret');
      expect(shown).not.toContain('gsk_1');
      expect(redactSecrets(config).gateway?.api_key).toBe('(set)');
    });
  });

  describe('atomic writes', () => {
    it('set keys and keep comments, formatting and the other keys; mode 0600', async () => {
      await writeFile(
        file,
        '# my notes\n[gateway]\nport = 9000 # my port\n\n[models]\nprimary = "claude-sonnet-4"\n',
      );
      await updateConfigFile(file, 'models', {
        anthropic_api_key: 'ENV:ANTHROPIC_API_KEY',
        fallback: 'gpt-4o',
      });
      const text = await readFile(file, 'utf8');
      expect(text).toContain('# my notes');
      expect(text).toContain('port = 9000 # my port');
      expect(text).toContain('primary = "claude-sonnet-4"');
      const config = parseConfig(text, file);
      expect(config.models).toMatchObject({
        primary: 'claude-sonnet-4',
        fallback: 'gpt-4o',
        anthropic_api_key: 'ENV:ANTHROPIC_API_KEY',
      });
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    });

    it('create the file when it does not exist', async () => {
      await updateConfigFile(file, 'models', { openai_api_key: 'sk-1' });
      expect(parseConfig(await readFile(file, 'utf8'), file).models.openai_api_key).toBe('sk-1');
    });

    it('refuse a value that would make the file invalid, leaving it untouched', async () => {
      const before = '[gateway]\nport = 9000\n';
      await writeFile(file, before);
      await expect(updateConfigFile(file, 'gateway', { port: 'x' })).rejects.toThrow(
        /gateway\.port/,
      );
      expect(await readFile(file, 'utf8')).toBe(before);
    });
  });
});
