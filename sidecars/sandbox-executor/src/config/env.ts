/**
 * The sidecar's settings, read from the environment here and nowhere else.
 *
 *   SANDBOX_TOKEN             required (≥ 16 characters): callers send it as X-Sandbox-Token
 *   SANDBOX_PORT              default 7433
 *   SANDBOX_HOST              default 127.0.0.1 (the image sets 0.0.0.0)
 *   SANDBOX_SOCKET            a Unix socket path to listen on instead of TCP (SANDBOX_HOST and
 *                             SANDBOX_PORT are then unused); created 0600 (the gateway runs as
 *                             the same uid); with no network but loopback it is the skill wall
 *   SANDBOX_BACKEND           docker | process; default: docker when the engine answers, else process
 *   SANDBOX_IMAGE             image of the throwaway containers, default debian:bookworm-slim
 *   SANDBOX_WORKSPACE_VOLUME  a Docker volume mounted at /work instead of a tmpfs (optional)
 *   SANDBOX_LOG_LEVEL         debug | info | warn | error, default info
 *   SANDBOX_SKILL_IMAGE       image of skill-host containers (Node 24, and python3 for skill.py),
 *                             default node:24-bookworm-slim (offline: hearth/node:<version>-bookworm
 *                             from scripts/build-images.sh); not pulled
 *   SANDBOX_BWRAP             process backend: the bwrap binary for skill hosts; `none` never uses
 *                             it (then only a sidecar without network may host skills, wall.ts);
 *                             default: the usual places, when it can build a sandbox here
 *   SANDBOX_SKILLS_DIR        process backend: where skill hosts and their data folders live,
 *                             default <tmpdir>/hearth-sandbox-skills
 *   SANDBOX_SKILL_MEMORY_MB, SANDBOX_SKILL_CPU_SECONDS, SANDBOX_SKILL_MAX_FILES,
 *   SANDBOX_SKILL_MAX_FILE_MB, SANDBOX_SKILL_DATA_QUOTA_MB, SANDBOX_SKILL_MAX_THREADS
 *                             each skill host's resource limits (positive integers; defaults as
 *                             the gateway's [skills] ones: 256, 600, 256, 64, 256, 64)
 */
import type { LogLevel } from '../logger.ts';

export type BackendChoice = 'docker' | 'process' | 'auto';

export interface SandboxConfig {
  token: string;
  port: number;
  host: string;
  socket: string | undefined;
  backend: BackendChoice;
  image: string;
  workspaceVolume: string | undefined;
  logLevel: LogLevel;
  skillImage: string;
  skillsDir: string | undefined;
  /** undefined: look for it; null: `none`. */
  bwrap: string | null | undefined;
  /** Resource limits of skill hosts that are set (the rest keep their defaults). */
  skillLimits: SkillLimitsEnv;
}

export interface SkillLimitsEnv {
  memoryMb?: number;
  cpuSeconds?: number;
  maxFiles?: number;
  maxFileMb?: number;
  dataQuotaMb?: number;
  maxTasks?: number;
}

const SKILL_LIMIT_VARIABLES = {
  memoryMb: 'SANDBOX_SKILL_MEMORY_MB',
  cpuSeconds: 'SANDBOX_SKILL_CPU_SECONDS',
  maxFiles: 'SANDBOX_SKILL_MAX_FILES',
  maxFileMb: 'SANDBOX_SKILL_MAX_FILE_MB',
  dataQuotaMb: 'SANDBOX_SKILL_DATA_QUOTA_MB',
  maxTasks: 'SANDBOX_SKILL_MAX_THREADS',
} as const;

function skillLimits(env: NodeJS.ProcessEnv): SkillLimitsEnv {
  const limits: SkillLimitsEnv = {};
  for (const [key, variable] of Object.entries(SKILL_LIMIT_VARIABLES)) {
    const text = env[variable];
    if (!text) continue;
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new ConfigError(`${variable} must be a positive integer, got "${text}"`);
    limits[key as keyof SkillLimitsEnv] = value;
  }
  return limits;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const MIN_TOKEN_LENGTH = 16;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): SandboxConfig {
  const token = env.SANDBOX_TOKEN ?? '';
  if (token === '') {
    throw new ConfigError(
      'SANDBOX_TOKEN is not set: refusing to start without a token (e.g. `openssl rand -hex 32`, ' +
        'the same value as the gateway’s sandbox_token)',
    );
  }
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError(
      `SANDBOX_TOKEN is too short: use at least ${MIN_TOKEN_LENGTH} characters`,
    );
  }
  const port = Number(env.SANDBOX_PORT || '7433');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`SANDBOX_PORT must be a port number, got "${env.SANDBOX_PORT}"`);
  }
  if (env.SANDBOX_SOCKET && !env.SANDBOX_SOCKET.startsWith('/')) {
    throw new ConfigError(`SANDBOX_SOCKET must be an absolute path, got "${env.SANDBOX_SOCKET}"`);
  }
  const backend = (env.SANDBOX_BACKEND || 'auto').toLowerCase();
  if (backend !== 'docker' && backend !== 'process' && backend !== 'auto') {
    throw new ConfigError(
      `SANDBOX_BACKEND must be docker or process, got "${env.SANDBOX_BACKEND}"`,
    );
  }
  const logLevel = (env.SANDBOX_LOG_LEVEL || 'info').toLowerCase();
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) {
    throw new ConfigError(`SANDBOX_LOG_LEVEL must be debug, info, warn or error`);
  }
  return {
    token,
    port,
    host: env.SANDBOX_HOST || '127.0.0.1',
    socket: env.SANDBOX_SOCKET || undefined,
    backend,
    image: env.SANDBOX_IMAGE || 'debian:bookworm-slim',
    workspaceVolume: env.SANDBOX_WORKSPACE_VOLUME || undefined,
    logLevel: logLevel as LogLevel,
    skillImage: env.SANDBOX_SKILL_IMAGE || 'node:24-bookworm-slim',
    skillsDir: env.SANDBOX_SKILLS_DIR || undefined,
    bwrap: env.SANDBOX_BWRAP === 'none' ? null : env.SANDBOX_BWRAP || undefined,
    skillLimits: skillLimits(env),
  };
}
