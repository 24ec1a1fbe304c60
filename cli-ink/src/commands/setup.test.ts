import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createFakeLlmServer,
  type FakeLlmServer,
} from '../../../gateway/src/testing/fakes/fake-llm/server.ts';
import { createHarness, freePort, type Harness } from '../testing/cli-harness.ts';

const SECRET = 'sk-literal-secret-0123456789';

describe('hearth setup', () => {
  let fake: FakeLlmServer;
  let h: Harness;
  const config = () => readFile(join(h.home, 'config.toml'), 'utf8');
  beforeAll(async () => void (fake = await createFakeLlmServer()));
  afterAll(() => fake.close());
  beforeEach(async () => void (h = await createHarness()));
  afterEach(() => h.cleanup());

  it('non-interactive: writes the provider, an ENV: key reference and the model after a live check', async () => {
    const result = await h.run(
      [
        'setup',
        '--provider',
        'openai_compatible',
        '--base-url',
        `${fake.url}/v1`,
        '--key',
        'ENV:MY_LLM_KEY',
        '--model',
        'custom/llama',
      ],
      { MY_LLM_KEY: SECRET },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('Live check: openai_compatible is reachable.');
    expect(result.stdout).toContain('models.openai_compatible_api_key = ENV:MY_LLM_KEY');
    expect(result.stdout).not.toContain(SECRET);
    const text = await config();
    expect(text).toContain('openai_compatible_api_key = "ENV:MY_LLM_KEY"');
    expect(text).toContain(`openai_compatible_base_url = "${fake.url}/v1"`);
    expect(text).toContain('primary = "custom/llama"');
    expect((await stat(join(h.home, 'config.toml'))).mode & 0o777).toBe(0o600);
  });

  it('reads a literal key from stdin and never prints it; --json reports what was written', async () => {
    const result = await h.run(
      [
        'setup',
        '--provider',
        'openai_compatible',
        '--base-url',
        `${fake.url}/v1`,
        '--key-stdin',
        '--json',
      ],
      {},
      [`${SECRET}\n`],
    );
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    expect(JSON.parse(result.stdout)).toEqual({
      config_path: join(h.home, 'config.toml'),
      provider: 'openai_compatible',
      written: [
        'models.openai_compatible_base_url',
        'models.openai_compatible_api_key',
        'models.primary',
      ],
      live_check: { reachable: true, detail: expect.any(String) },
      gateway_api_key_set: false,
    });
    expect(await config()).toContain(`openai_compatible_api_key = "${SECRET}"`);
  });

  it('keeps the comments and other keys of an existing config.toml', async () => {
    await writeFile(join(h.home, 'config.toml'), '# my notes\n[gateway]\nport = 7777 # mine\n');
    const result = await h.run([
      'setup',
      '--provider',
      'ollama',
      '--base-url',
      fake.url,
      '--model',
      'ollama/llama3.2',
    ]);
    expect(result.code).toBe(0);
    const text = await config();
    expect(text).toContain('# my notes');
    expect(text).toContain('port = 7777 # mine');
    expect(text).toContain('primary = "ollama/llama3.2"');
  });

  it('writes nothing when the live check fails (exit 1); --skip-check writes anyway', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/v1`;
    const failed = await h.run(
      ['setup', '--provider', 'openai_compatible', '--base-url', closed, '--key', 'ENV:K'],
      { K: SECRET },
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      /^hearth: live check of openai_compatible failed: .*Nothing was written/,
    );
    await expect(config()).rejects.toThrow(/ENOENT/);

    const forced = await h.run(
      [
        'setup',
        '--provider',
        'openai_compatible',
        '--base-url',
        closed,
        '--key',
        'ENV:K',
        '--skip-check',
      ],
      { K: SECRET },
    );
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('Live check: skipped.');
  });

  it('--gateway-key generate sets gateway.api_key and shows the new key once', async () => {
    const result = await h.run([
      'setup',
      '--provider',
      'ollama',
      '--base-url',
      fake.url,
      '--gateway-key',
      'generate',
    ]);
    expect(result.code).toBe(0);
    const key = /Gateway API key \(shown once\): (\S+)/.exec(result.stdout)?.[1];
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await config()).toContain(`api_key = "${key}"`);
  });

  it.each([
    [['--provider', 'nope'], /unknown provider "nope"; one of: anthropic, openai/],
    [
      ['--provider', 'openai', '--key', 'has spaces in it'],
      /openai_api_key: 8 to 512 visible characters/,
    ],
    [['--provider', 'openai', '--key', 'ENV:1BAD'], /ENV: must be followed by a variable name/],
    [['--provider', 'openai', '--key', 'op://only/two'], /op:\/\/<vault>\/<item>\/<field>/],
    [['--provider', 'openai'], /openai_api_key is needed for openai/],
    [['--provider', 'ollama', '--base-url', 'file:///etc/passwd'], /ollama_base_url: use an http/],
    [
      ['--provider', 'ollama', '--base-url', 'http://x', '--model', 'two words'],
      /--primary: not a model id/,
    ],
    [
      ['--provider', 'ollama', '--base-url', 'http://x', '--gateway-key', 'short'],
      /gateway api key: 8 to 512/,
    ],
  ])('refuses bad input with exit 2 and writes nothing: %j', async (args, message) => {
    const result = await h.run(['setup', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    await expect(config()).rejects.toThrow(/ENOENT/);
  });

  it('without a terminal and without --provider it asks for flags (exit 2)', async () => {
    const result = await h.run(['setup']);
    expect(result).toMatchObject({ code: 2 });
    expect(result.stderr).toContain('--provider is needed without a terminal');
  });

  it('interactive: picks a provider by number, reads the key without echo, checks, writes', async () => {
    const index = 19; // openai_compatible is the 19th provider
    const result = await h.run(
      ['setup'],
      { TEST_KEY: SECRET },
      [`${index}\n`, `${fake.url}/v1\n`, 'ENV:TEST_KEY\n', '\n', 'n\n'],
      { isTTY: true },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('Live check: openai_compatible is reachable.');
    const text = await config();
    expect(text).toContain('openai_compatible_api_key = "ENV:TEST_KEY"');
    expect(text).toContain('primary = "custom/local-model"');
  });

  it('interactive: a failed check asks before writing; "n" writes nothing', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/v1`;
    const result = await h.run(
      ['setup'],
      {},
      ['openai_compatible\n', `${closed}\n`, `${SECRET}\n`, '\n', 'n\n'],
      {
        isTTY: true,
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('hearth: Nothing was written.\n');
    await expect(config()).rejects.toThrow(/ENOENT/);
  });

  /** The machine's fetch, with Ollama's default address sent to the fake server instead. */
  const ollamaAtDefault = (): typeof fetch => (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    return fetch(url.replace('http://127.0.0.1:11434', fake.url), init);
  };

  it('interactive Ollama: the URL is pre-filled, and a bare model name is written with its ollama/ prefix', async () => {
    const prompts = new PassThrough();
    let shown = '';
    prompts.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const result = await h.run(['setup'], {}, ['18\n', '\n', 'llama3.2:1b\n', 'n\n'], {
      isTTY: true,
      fetch: ollamaAtDefault(),
      promptOutput: prompts,
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(shown).toContain('ollama_base_url [http://127.0.0.1:11434]: ');
    expect(shown).toContain('The model is written as ollama/llama3.2:1b');
    const text = await config();
    expect(text).toContain('ollama_base_url = "http://127.0.0.1:11434"');
    expect(text).toContain('primary = "ollama/llama3.2:1b"');
    expect(result.stdout).toContain('Live check: ollama is reachable.');
  });

  it('non-interactive Ollama: the default URL without --base-url, the prefix on every model', async () => {
    const result = await h.run(
      [
        'setup',
        '--provider',
        'ollama',
        '--model',
        'llama3.2:1b',
        '--fast',
        'qwen-2.5:0.5b',
        '--fallback',
        'ollama/mistral',
      ],
      {},
      undefined,
      { fetch: ollamaAtDefault() },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const text = await config();
    expect(text).toContain('ollama_base_url = "http://127.0.0.1:11434"');
    expect(text).toContain('primary = "ollama/llama3.2:1b"');
    // A bare name that looks like another vendor's id is still the chosen provider's model.
    expect(text).toContain('fast = "ollama/qwen-2.5:0.5b"');
    expect(text).toContain('fallback = "ollama/mistral"');
  });

  it('a model another provider would get is refused for a provider without a routing label', async () => {
    const result = await h.run([
      'setup',
      '--provider',
      'anthropic',
      '--key',
      'ENV:K',
      '--model',
      'gpt-4o',
      '--skip-check',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'hearth: --primary: gpt-4o is not a anthropic model (the gateway would send it to openai); anthropic model ids start with claude-\n',
    );
    await expect(config()).rejects.toThrow(/ENOENT/);
  });

  it('interactive: an empty or wrong answer is asked again at once, never accepted and refused at the end', async () => {
    const prompts = new PassThrough();
    let shown = '';
    prompts.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const result = await h.run(
      ['setup'],
      { TEST_KEY: SECRET },
      [
        'nope\n', // not a provider
        'openai_compatible\n',
        '\n', // the base URL is required
        'file:///etc/passwd\n',
        `${fake.url}/v1\n`,
        'ENV:TEST_KEY\n',
        'claude-sonnet-4-5\n', // routes to anthropic: prefixed as the compatible endpoint's
        'n\n',
      ],
      { isTTY: true, promptOutput: prompts },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(shown).toContain('unknown provider "nope": a number from 1 to 19 or a name. Try again.');
    expect(shown).toContain(
      'openai_compatible_base_url is needed for openai_compatible. Try again.',
    );
    expect(shown).toContain(
      'openai_compatible_base_url: use an http:// or https:// URL. Try again.',
    );
    const text = await config();
    expect(text).toContain(`openai_compatible_base_url = "${fake.url}/v1"`);
    expect(text).toContain('primary = "custom/claude-sonnet-4-5"');
  });

  it('interactive: input that ends where an answer is required says so at once and writes nothing', async () => {
    const result = await h.run(['setup'], {}, ['anthropic\n'], { isTTY: true });
    expect(result).toMatchObject({
      code: 2,
      stderr: 'hearth: anthropic_api_key is needed for anthropic\n',
    });
    await expect(config()).rejects.toThrow(/ENOENT/);
  });

  it('interactive: after a failed check an empty answer is asked again, never taken for "no"', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/v1`;
    const prompts = new PassThrough();
    let shown = '';
    prompts.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const result = await h.run(
      ['setup'],
      {},
      ['openai_compatible\n', `${closed}\n`, '\n', '\n', '\n', 'y\n', '\n'],
      { isTTY: true, promptOutput: prompts },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(shown).toContain('answer y (write it) or n (write nothing). Try again.');
    expect(result.stdout).toContain('Live check: skipped.');
    expect(await config()).toContain(`openai_compatible_base_url = "${closed}"`);
  });
});
