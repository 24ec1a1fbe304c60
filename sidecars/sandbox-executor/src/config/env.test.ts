import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';

const TOKEN = '0123456789abcdef0123';

describe('sidecar configuration', () => {
  it('refuses to start without a token, or with a short one', () => {
    expect(() => loadConfig({})).toThrow(ConfigError);
    expect(() => loadConfig({ SANDBOX_TOKEN: '' })).toThrow(/SANDBOX_TOKEN is not set/);
    expect(() => loadConfig({ SANDBOX_TOKEN: 'short' })).toThrow(/too short/);
  });

  it('has defaults for everything else', () => {
    expect(loadConfig({ SANDBOX_TOKEN: TOKEN })).toEqual({
      token: TOKEN,
      port: 7433,
      host: '127.0.0.1',
      backend: 'auto',
      image: 'debian:bookworm-slim',
      workspaceVolume: undefined,
      logLevel: 'info',
      skillImage: 'node:24-bookworm-slim',
      skillsDir: undefined,
      skillLimits: {},
    });
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        SANDBOX_TOKEN: TOKEN,
        SANDBOX_PORT: '8000',
        SANDBOX_HOST: '0.0.0.0',
        SANDBOX_BACKEND: 'Process',
        SANDBOX_IMAGE: 'alpine:3',
        SANDBOX_WORKSPACE_VOLUME: 'hearth_sandbox-work',
        SANDBOX_LOG_LEVEL: 'warn',
        SANDBOX_SKILL_IMAGE: 'hearth/node:24.21.0-bookworm',
        SANDBOX_SKILLS_DIR: '/var/lib/hearth-skills',
        SANDBOX_SKILL_MEMORY_MB: '128',
        SANDBOX_SKILL_CPU_SECONDS: '60',
        SANDBOX_SKILL_MAX_FILES: '64',
        SANDBOX_SKILL_MAX_FILE_MB: '8',
        SANDBOX_SKILL_DATA_QUOTA_MB: '32',
        SANDBOX_SKILL_MAX_THREADS: '40',
      }),
    ).toEqual({
      token: TOKEN,
      port: 8000,
      host: '0.0.0.0',
      backend: 'process',
      image: 'alpine:3',
      workspaceVolume: 'hearth_sandbox-work',
      logLevel: 'warn',
      skillImage: 'hearth/node:24.21.0-bookworm',
      skillsDir: '/var/lib/hearth-skills',
      skillLimits: {
        memoryMb: 128,
        cpuSeconds: 60,
        maxFiles: 64,
        maxFileMb: 8,
        dataQuotaMb: 32,
        maxTasks: 40,
      },
    });
  });

  it.each([
    [{ SANDBOX_PORT: 'http' }, /SANDBOX_PORT/],
    [{ SANDBOX_PORT: '70000' }, /SANDBOX_PORT/],
    [{ SANDBOX_BACKEND: 'podman' }, /SANDBOX_BACKEND/],
    [{ SANDBOX_LOG_LEVEL: 'loud' }, /SANDBOX_LOG_LEVEL/],
    [{ SANDBOX_SKILL_MEMORY_MB: 'lots' }, /SANDBOX_SKILL_MEMORY_MB must be a positive integer/],
    [{ SANDBOX_SKILL_MAX_FILES: '0' }, /SANDBOX_SKILL_MAX_FILES must be a positive integer/],
  ])('rejects %j', (env, message) => {
    expect(() => loadConfig({ SANDBOX_TOKEN: TOKEN, ...env })).toThrow(message);
  });
});
