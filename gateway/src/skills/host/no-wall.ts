/**
 * Fail closed where no wall exists: a local skill host needs bubblewrap (its own network
 * namespace; Node's permission model cannot restrict sockets, so `node --permission` alone
 * leaves loopback, the LAN and Unix sockets reachable). Without it no skill is hosted unless
 * its owner opted that one skill out by hand (`"without_wall": true` in its skill.json), which
 * is logged as a warning at every start and shown in /status and in the skill's entry.
 */
import { HearthError } from '../../errors.ts';
import type { Logger } from '../../observability/logger.ts';

/** Why bubblewrap is not a wall here (shown in /status and in the refusal). */
export type NoWallReason = 'not-installed' | 'cannot-sandbox' | 'disabled';

const WHY: Record<NoWallReason, string> = {
  'not-installed': 'bubblewrap is not installed',
  'cannot-sandbox':
    'bubblewrap is installed but cannot create a sandbox here (no unprivileged user namespaces: a container’s default seccomp profile, or a kernel setting)',
  disabled: 'bubblewrap is disabled',
};

export const HOW_TO_GET_A_WALL =
  'install bubblewrap (Debian/Ubuntu: apt install bubblewrap), or run skills in the skill-host sidecar ([skills] host = "sidecar", see the README’s security model), or opt one skill out by hand with "without_wall": true in its skill.json';

export function noWallWhy(reason: NoWallReason): string {
  return WHY[reason];
}

/** The /status line of a local isolation without a wall. */
export function noWallDescription(reason: NoWallReason, optedOut: readonly string[]): string {
  const base = `no wall: skills refused (${WHY[reason]})`;
  return optedOut.length === 0
    ? base
    : `${base}; WITHOUT A WALL by the owner's opt-out: ${optedOut.join(', ')}`;
}

/** The refusal of a skill host where no wall exists. */
export function noWallRefusal(skill: string, reason: NoWallReason): HearthError {
  return new HearthError(
    'unavailable',
    `no wall for skill '${skill}': ${WHY[reason]}, and Node's permission model alone cannot keep a skill off the network; ${HOW_TO_GET_A_WALL}`,
  );
}

/** Logged at every start of an opted-out host. */
export function warnWithoutWall(logger: Logger, skill: string, reason: NoWallReason): void {
  logger.warn(
    { skill, without_wall: true, why: WHY[reason] },
    `skill '${skill}' runs WITHOUT A WALL (its skill.json sets "without_wall": true): it can reach the network, loopback services and Unix sockets of this machine`,
  );
}
