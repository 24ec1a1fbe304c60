/**
 * What hosts a skill for a `GET /skills/host` socket: starts the gateway's skill runtime with
 * the skill's files behind this backend's walls and reports its stdout, stderr and end.
 */
import type { SkillStart } from './start-frame.ts';

export interface SkillProcessEvents {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  /** The host ended (`exit code 3`, `signal SIGKILL`, …); reported once. */
  exit(how: string): void;
}

export interface SkillProcess {
  /** Bytes for the host's stdin (JSON lines). */
  write(bytes: Buffer): void;
  /** Stops the host at once; `exit` follows. */
  kill(): void;
}

export interface SkillLauncher {
  /** `process` (permission model, plus bubblewrap when it works) or `container`. */
  readonly isolation: 'process' | 'container';
  /** The network wall around each host, or why there is none (then every start is refused). */
  readonly wall?: string;
  start(start: SkillStart, events: SkillProcessEvents): Promise<SkillProcess>;
}

/** The skill cannot be hosted as asked (e.g. skill.py without bubblewrap): a 4422 close. */
export class SkillStartError extends Error {
  override readonly name = 'SkillStartError';
}
