/**
 * Layer 3 with `[security] executor = "sandbox"`: every skill host runs in the sandbox-executor
 * sidecar (process backend: its permission model and bubblewrap; docker backend: a throwaway
 * container), reached over `GET /skills/host` (sidecar-link.ts). The gateway sends the skill's
 * folder and the skill runtime; the protocol, timeouts, output cap, idle stop and the gated
 * `shell()`/`browser()` requests are the same as for a local host (skill-process.ts), and those
 * requests come back here to the gateway's own gate.
 * There is no silent fallback to the local walls: the sidecar down is a failed start or a
 * tool error, and `/status` says so (`sandbox sidecar (unreachable: …)`).
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HearthError } from '../../errors.ts';
import type { Logger } from '../../observability/logger.ts';
import type { SkillHost, SkillHostOptions, SkillIsolation } from '../types.ts';
import { sidecarHealth } from './sidecar-address.ts';
import { sidecarHostGuard } from './host-guard.ts';
import { SANDBOX_TOKEN_HEADER, sidecarLink } from './sidecar-link.ts';
import { hostFetch, type SkillFetch } from './skill-fetch.ts';
import {
  DEFAULT_LIMITS,
  startSkillProcess,
  type SkillInputLimit,
  type SkillProcessLimits,
} from './skill-process.ts';

export interface SidecarIsolationOptions {
  /** `[skills] sidecar_url` (or `[security] sandbox_url`): `http://…` or `unix:/path`. */
  url: string;
  token: () => string;
  logger: Logger;
  limits?: Partial<SkillProcessLimits>;
  maxOldSpaceMb?: number;
  /** The gateway's fetch for skills (skill-fetch.ts): no sidecar host has a network. */
  skillFetch?: SkillFetch;
  /** Told each time a host's input is refused over a cap (skill-process.ts; a counter). */
  onRefused?: (limit: SkillInputLimit) => void;
}

const RUNTIME_DIR = join(dirname(fileURLToPath(import.meta.url)), 'runtime');
const RUNTIME_FILES = ['runtime.mjs', 'skill-api.mjs', 'runtime.py'];
/** What one skill may send to the sandbox (its folder). */
const MAX_SKILL_BYTES = 4 * 1024 * 1024;
const MAX_SKILL_FILES = 200;

/** The skill's folder as path → base64 (regular files only; symbolic links are skipped). */
async function readSkillFolder(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  let bytes = 0;
  let count = 0;
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        await walk(path);
        continue;
      }
      if (!entry.isFile() || (await lstat(path)).isSymbolicLink()) continue;
      const content = await readFile(path);
      bytes += content.length;
      count += 1;
      if (bytes > MAX_SKILL_BYTES || count > MAX_SKILL_FILES)
        throw new HearthError(
          'validation',
          `the skill folder is larger than the sandbox takes (${MAX_SKILL_FILES} files, ${MAX_SKILL_BYTES} bytes)`,
        );
      files[relative(dir, path).split(sep).join('/')] = content.toString('base64');
    }
  };
  await walk(dir);
  return files;
}

async function readRuntime(): Promise<Record<string, string>> {
  const entries = await Promise.all(
    RUNTIME_FILES.map(
      async (name) => [name, (await readFile(join(RUNTIME_DIR, name))).toString('base64')] as const,
    ),
  );
  return Object.fromEntries(entries);
}

type Health =
  | { state: 'unknown' }
  | { state: 'up'; skills: string | null; wall: string | null }
  | { state: 'down'; reason: string };

export function createSidecarSkillIsolation(options: SidecarIsolationOptions): SkillIsolation {
  const { logger } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const maxOldSpaceMb = options.maxOldSpaceMb ?? 128;
  let health: Health = { state: 'unknown' };
  let live = 0;

  async function probe(): Promise<void> {
    if (options.url === '') {
      health = { state: 'down', reason: 'no [skills] sidecar_url' };
      return;
    }
    try {
      const body = await sidecarHealth(options.url, { [SANDBOX_TOKEN_HEADER]: options.token() });
      health = {
        state: 'up',
        skills: typeof body.skills === 'string' ? body.skills : null,
        wall: typeof body.skills_wall === 'string' ? body.skills_wall : null,
      };
    } catch (error) {
      health = {
        state: 'down',
        reason:
          error instanceof Error
            ? error.cause instanceof Error
              ? error.cause.message
              : error.message
            : String(error),
      };
    }
  }
  void probe();

  return {
    get description(): string {
      switch (health.state) {
        case 'unknown':
          return 'sandbox sidecar';
        case 'up':
          if (!health.skills) return 'sandbox sidecar (hosts no skills)';
          return health.wall
            ? `sandbox sidecar (${health.skills}, wall: ${health.wall})`
            : `sandbox sidecar (${health.skills})`;
        case 'down':
          return `sandbox sidecar (unreachable: ${health.reason})`;
      }
    },
    running: () => live,
    // The sidecar sets and watches them; a host it stops at one is reported like a local one.
    resources: 'set by the sandbox sidecar (SANDBOX_SKILL_* in its environment)',
    async start(host: SkillHostOptions): Promise<SkillHost> {
      if (options.url === '')
        throw new HearthError(
          'unavailable',
          'skill hosts in the sidecar need [skills] sidecar_url (or [security] sandbox_url)',
        );
      const files = await readSkillFolder(host.dir);
      const runtime = await readRuntime();
      const frame = JSON.stringify({
        name: host.name,
        kind: host.kind,
        // A skill's requests are made by the gateway (skill-fetch.ts), never by its host.
        network: false,
        files,
        runtime,
        max_old_space_mb: maxOldSpaceMb,
      });
      try {
        return await startSkillProcess({
          skill: host.name,
          connect: sidecarLink({
            url: options.url,
            token: options.token(),
            startFrame: () => Promise.resolve(frame),
            onOversized: () => options.onRefused?.('sidecar_message_bytes'),
          }),
          limits,
          logger: logger.child({ skill: host.name, isolation: 'sandbox' }),
          fetch: hostFetch(options.skillFetch, host),
          onRunning: (running) => {
            live += running ? 1 : -1;
            // A host gone (idle, crashed, or the sidecar down): /status follows the sidecar.
            if (!running) void probe();
          },
          guard: sidecarHostGuard,
          onLimit: host.onLimit,
          onRefused: options.onRefused,
        });
      } finally {
        void probe(); // /status follows the sidecar's state
      }
    },
  };
}
