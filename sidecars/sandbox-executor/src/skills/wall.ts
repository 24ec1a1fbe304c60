/**
 * The process backend's network wall around skill hosts, decided once at start. Node's
 * permission model cannot restrict sockets, so a skill host needs one of:
 *   bubblewrap        bwrap builds a sandbox here: each host gets its own network namespace
 *   no network        this sidecar itself has no network interface but loopback (compose:
 *                     `network_mode: none`) and listens only on a Unix socket, so nothing is
 *                     reachable over TCP, on loopback or beyond; the socket is token-checked
 * Neither: no skill is hosted (`refusal` says why; /health shows it).
 */
import { networkInterfaces } from 'node:os';

export interface SkillWall {
  /** Shown in /health `skills_wall` (and so in the gateway's /status). */
  readonly description: string;
  /** Why skill hosts are refused here, or null when there is a wall. */
  readonly refusal: string | null;
}

export interface DetectWallInput {
  bubblewrap: boolean;
  /** The sidecar listens on a Unix socket and on no TCP port. */
  socketOnly: boolean;
  /** Interface names (default: this machine's, os.networkInterfaces()). */
  interfaces?: readonly string[];
}

export function detectWall(input: DetectWallInput): SkillWall {
  if (input.bubblewrap) return { description: 'bubblewrap', refusal: null };
  const interfaces = input.interfaces ?? Object.keys(networkInterfaces());
  const others = interfaces.filter((name) => name !== 'lo');
  if (others.length === 0 && input.socketOnly)
    return {
      description: 'no network (only loopback, nothing listening on it; Unix socket, token)',
      refusal: null,
    };
  const why =
    others.length > 0
      ? `this sidecar has a network (${others.join(', ')})`
      : 'this sidecar listens on TCP (set SANDBOX_SOCKET)';
  const refusal =
    `no wall for skill hosts: bubblewrap cannot build a sandbox here and ${why}; ` +
    'run this sidecar with no network (compose: network_mode: none, SANDBOX_SOCKET) or where bubblewrap works';
  return { description: `none: skills refused (${refusal})`, refusal };
}
