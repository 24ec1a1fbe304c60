import { describe, expect, it } from 'vitest';
import { sanitiseEnv, sanitiseEnvWithReport } from './sanitise-env.ts';

const CONFIGURED_SECRETS = ['s3cr3t-gateway-api-key', 'hunter2hunter2', 'abc'];

describe('sanitiseEnv', () => {
  describe('drops variables whose name looks secret', () => {
    it.each([
      'ANTHROPIC_API_KEY',
      'OPENAI_API_KEY',
      'GOOGLE_GENERATIVE_AI_API_KEY',
      'CO_API_KEY',
      'STRIPE_KEY',
      'SIGNING_KEY_ID',
      'OPENAIAPIKEY',
      'HF_TOKEN',
      'SLACK_BOT_TOKEN',
      'NPM_TOKEN',
      'GH_TOKEN',
      'GITHUB_TOKEN',
      'NODE_AUTH_TOKEN',
      'npm_config__authtoken',
      'npm_config_//registry.npmjs.org/:_authToken',
      'CLIENT_SECRET',
      'jwt_secret',
      'PGPASSWORD',
      'SMTP_PASSWD',
      'KEY_PASSPHRASE',
      'DB_PWD',
      'MYSQL_PASS',
      'GITLAB_PAT',
      'SENTRY_DSN',
      'MY_CREDENTIALS',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'AWS_ACCESS_KEY_ID',
      'AWS_PROFILE',
      'AZURE_OPENAI_ENDPOINT',
      'OP_SERVICE_ACCOUNT_TOKEN',
      'OP_CONNECT_HOST',
      'VAULT_ADDR',
      'HEARTH_API_KEY',
      'HEARTH_HOME',
      'HEARTH_AUDIT_DB_PATH',
      'SSH_AUTH_SOCK',
      'DOCKER_HOST',
      'KUBECONFIG',
      'DATABASE_URL',
      'XAUTHORITY',
      'SESSION_COOKIE',
    ])('%s', (name) => {
      expect(sanitiseEnv({ [name]: 'harmless-looking value' }, [])).toEqual({});
    });
  });

  describe('keeps ordinary variables', () => {
    it.each([
      ['PATH', '/usr/local/bin:/usr/bin:/bin'],
      ['HOME', '/home/hearth'],
      ['LANG', 'C.UTF-8'],
      ['LC_ALL', 'C.UTF-8'],
      ['LC_CTYPE', 'en_GB.UTF-8'],
      ['TERM', 'xterm-256color'],
      ['TZ', 'Europe/London'],
      ['USER', 'hearth'],
      ['SHELL', '/bin/bash'],
      ['TMPDIR', '/tmp'],
      ['EDITOR', 'vi'],
      ['NODE_ENV', 'production'],
      ['GIT_AUTHOR_NAME', 'Hearth'],
      ['KEYBOARD_LAYOUT', 'gb'],
      ['HEARTH_LOG_LEVEL', 'info'],
      ['REDIS_URL', 'redis://127.0.0.1:6379'],
      ['PWD', '/work'],
      ['OLDPWD', '/'],
    ])('%s', (name, value) => {
      expect(sanitiseEnv({ [name]: value }, CONFIGURED_SECRETS)).toEqual({ [name]: value });
    });
  });

  describe('drops variables whose value contains a configured secret or a credential', () => {
    it.each([
      ['EXTRA_ARGS', '--header X-API-Key:s3cr3t-gateway-api-key', 'configured secret'],
      ['PATH', '/usr/bin:/opt/hunter2hunter2/bin', 'configured secret, even in PATH'],
      ['UPSTREAM', 'postgres://hearth:pa55word@db:5432/hearth', 'URL with a password'],
      ['PROXY', 'http://user:pw@proxy.lan:3128', 'proxy URL with a password'],
      ['OPENAI', 'sk-proj-abcdefghijklmnopqrstuvwxyz0123', 'OpenAI key format'],
      ['CLAUDE', 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz', 'Anthropic key format'],
      ['GH', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'GitHub token format'],
      ['AWS_LIKE', 'AKIAABCDEFGHIJKLMNOP', 'AWS key id format'],
      ['PEM', '-----BEGIN OPENSSH PRIVATE KEY-----\nabc', 'private key'],
    ])('%s (%s)', (name, value) => {
      expect(sanitiseEnv({ [name]: value }, CONFIGURED_SECRETS)).toEqual({});
    });
  });

  it('ignores configured secrets shorter than 4 characters (too many false positives)', () => {
    expect(sanitiseEnv({ GREETING: 'abcdef' }, CONFIGURED_SECRETS)).toEqual({
      GREETING: 'abcdef',
    });
    expect(sanitiseEnv({ GREETING: 'abcdef' }, ['', 'abc'])).toEqual({ GREETING: 'abcdef' });
  });

  it('drops undefined values and names or values that cannot be passed to a child', () => {
    expect(sanitiseEnv({ A: undefined, 'B=C': 'x', D: 'a\0b', E: 'ok' }, [])).toEqual({
      E: 'ok',
    });
  });

  it('filters a realistic process environment and reports names, never values', () => {
    const env = {
      PATH: '/usr/bin:/bin',
      HOME: '/home/me',
      ANTHROPIC_API_KEY: 'sk-ant-not-a-real-key-000000000000',
      HEARTH_API_KEY: 's3cr3t-gateway-api-key',
      CUSTOM_SETTING: 'uses s3cr3t-gateway-api-key inline',
      LANG: 'C.UTF-8',
    };
    const { env: kept, dropped } = sanitiseEnvWithReport(env, CONFIGURED_SECRETS);
    expect(kept).toEqual({ PATH: '/usr/bin:/bin', HOME: '/home/me', LANG: 'C.UTF-8' });
    expect(dropped.map((entry) => entry.name).sort()).toEqual([
      'ANTHROPIC_API_KEY',
      'CUSTOM_SETTING',
      'HEARTH_API_KEY',
    ]);
    expect(JSON.stringify(dropped)).not.toContain('s3cr3t');
  });

  it('keeps a variable called __proto__ as data, not as the prototype', () => {
    const env: Record<string, string> = {};
    Object.defineProperty(env, '__proto__', { value: 'x', enumerable: true });
    const result = sanitiseEnv(env, []);
    expect(Object.keys(result)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });
});
