/**
 * The hosts a skill's code declares it needs, in a header line near its top:
 *   // hearth:hosts api.example.com, tiles.example.org:8443      (skill.mjs)
 *   # hearth:hosts api.example.com                               (skill.py)
 * Exact DNS names (no IP address, no wildcard), each optionally with a port (443 otherwise).
 * Installing the code writes them to skill.json `hosts` and grants `network` when there are
 * any; the owner may edit both there. The gateway fetches for the skill only these hosts, over
 * https, at public addresses (skills/host/skill-fetch.ts).
 */
import { validationError } from '../../errors.ts';
import type { SkillKind } from '../types.ts';
import { declaredHostProblem } from '../host/skill-fetch.ts';

/** At most this many declared hosts. */
export const MAX_DECLARED_HOSTS = 32;
/** The header is read in the first lines only. */
const HEADER_LINES = 20;

/** The declared hosts (lower case, de-duplicated); a malformed header is a 422 naming it. */
export function declaredHosts(source: string, kind: SkillKind): string[] {
  const comment = kind === 'py' ? '#' : '//';
  const hosts: string[] = [];
  for (const line of source.split('\n', HEADER_LINES)) {
    const trimmed = line.trim();
    if (!trimmed.startsWith(comment)) continue;
    const match = /^hearth:hosts(?:\s+(.*))?$/.exec(trimmed.slice(comment.length).trim());
    if (!match) continue;
    for (const entry of (match[1] ?? '').split(/[\s,]+/).filter(Boolean)) {
      const host = entry.toLowerCase();
      const problem = declaredHostProblem(host);
      if (problem !== undefined) throw validationError(`hearth:hosts: ${problem}`);
      if (!hosts.includes(host)) hosts.push(host);
    }
  }
  if (hosts.length > MAX_DECLARED_HOSTS)
    throw validationError(`hearth:hosts: at most ${MAX_DECLARED_HOSTS} hosts`);
  return hosts;
}
