/**
 * Provenance of remembered text: where what a memory row was made from came from.
 *
 * - `owner`: the owner's own words (a user turn, a row stored through POST /memory);
 * - `hearth`: what Hearth wrote itself from trusted context (a reply, a summary of trusted rows);
 * - `untrusted`: anything made (even in part) from a browser page, an MCP or skill tool result,
 *   fetched shell output, a stranger's channel message, a third-party tool description, or a
 *   recalled untrusted memory. `sources` names them (empty for the two trusted levels).
 *
 * Trust only ever goes down: whatever is made from several pieces takes the least trusted of
 * them (untrusted < hearth < owner), and the sources of untrusted pieces are joined.
 */
import { z } from 'zod';

export type OriginTrust = 'owner' | 'hearth' | 'untrusted';

export type OriginSourceKind =
  'browser' | 'mcp' | 'skill' | 'shell' | 'channel' | 'memory' | 'tool_description';

export interface OriginSource {
  kind: OriginSourceKind;
  /** What it was: a host name, a tool or server name, a channel and sender… */
  name: string;
}

export interface MemoryOrigin {
  trust: OriginTrust;
  /** Empty unless `trust` is 'untrusted'. */
  sources: OriginSource[];
}

/** Sources kept on one origin; a summary of many untrusted rows names at most this many. */
export const MAX_ORIGIN_SOURCES = 16;
/** Longest source name kept, in characters. */
export const MAX_SOURCE_NAME_CHARS = 200;

export const ORIGIN_SOURCE_KINDS: readonly OriginSourceKind[] = [
  'browser',
  'mcp',
  'skill',
  'shell',
  'channel',
  'memory',
  'tool_description',
];

const RANK: Record<OriginTrust, number> = { untrusted: 0, hearth: 1, owner: 2 };

export const OWNER_ORIGIN: MemoryOrigin = Object.freeze({
  trust: 'owner',
  sources: Object.freeze([]) as unknown as OriginSource[],
});
export const HEARTH_ORIGIN: MemoryOrigin = Object.freeze({
  trust: 'hearth',
  sources: Object.freeze([]) as unknown as OriginSource[],
});

/** The origin stored in place of one that cannot be read back: untrusted, fail closed. */
export const UNREADABLE_ORIGIN: MemoryOrigin = Object.freeze({
  trust: 'untrusted',
  sources: Object.freeze([
    Object.freeze({ kind: 'memory', name: 'unreadable origin' }),
  ]) as unknown as OriginSource[],
});

export const originSourceSchema = z.object({
  kind: z.enum(ORIGIN_SOURCE_KINDS as [OriginSourceKind, ...OriginSourceKind[]]),
  name: z.string().max(MAX_SOURCE_NAME_CHARS),
});

/** The wire and storage form; `sources` must be empty unless untrusted. */
export const memoryOriginSchema = z
  .object({
    trust: z.enum(['owner', 'hearth', 'untrusted']),
    sources: z.array(originSourceSchema).max(MAX_ORIGIN_SOURCES).default([]),
  })
  .refine((o) => o.trust === 'untrusted' || o.sources.length === 0, {
    message: 'sources are only given for an untrusted origin',
    path: ['sources'],
  });

export function isUntrusted(origin: MemoryOrigin | null | undefined): boolean {
  return origin?.trust === 'untrusted';
}

/** Joins source lists, each kind+name once, first seen first, at most MAX_ORIGIN_SOURCES. */
function joinSources(lists: readonly (readonly OriginSource[])[]): OriginSource[] {
  const seen = new Set<string>();
  const joined: OriginSource[] = [];
  for (const list of lists) {
    for (const source of list) {
      const key = `${source.kind}\u0000${source.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      joined.push({ kind: source.kind, name: source.name });
      if (joined.length === MAX_ORIGIN_SOURCES) return joined;
    }
  }
  return joined;
}

/**
 * The least trusted of several origins: untrusted wins (its sources are the union of the
 * untrusted ones, capped), then hearth, then owner. With none given, `fallback`.
 */
export function leastTrusted(
  origins: readonly (MemoryOrigin | null | undefined)[],
  fallback: MemoryOrigin = OWNER_ORIGIN,
): MemoryOrigin {
  const present = origins.filter((o): o is MemoryOrigin => o !== null && o !== undefined);
  if (present.length === 0) return copyOrigin(fallback);
  const lowest = Math.min(...present.map((o) => RANK[o.trust] ?? 0));
  const trust = (Object.keys(RANK) as OriginTrust[]).find((t) => RANK[t] === lowest) ?? 'untrusted';
  if (trust !== 'untrusted') return { trust, sources: [] };
  return {
    trust,
    sources: joinSources(present.filter((o) => o.trust === 'untrusted').map((o) => o.sources)),
  };
}

/** A copy of an origin already checked (no validation again). */
export function copyOrigin(origin: MemoryOrigin): MemoryOrigin {
  return { trust: origin.trust, sources: origin.sources.map((s) => ({ ...s })) };
}

/**
 * Checks an origin a caller gives before it is stored: a well-formed one is returned trimmed
 * to the caps; anything else is refused (TypeError) rather than stored as something it is not.
 */
export function normaliseOrigin(origin: MemoryOrigin): MemoryOrigin {
  const trimmed = {
    trust: origin.trust,
    sources: joinSources([
      (Array.isArray(origin.sources) ? origin.sources : []).map((s) => ({
        kind: s.kind,
        name: typeof s.name === 'string' ? s.name.slice(0, MAX_SOURCE_NAME_CHARS) : s.name,
      })),
    ]),
  };
  const parsed = memoryOriginSchema.safeParse(trimmed);
  if (!parsed.success)
    throw new TypeError(`Not a memory origin: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/**
 * Reads a stored origin (JSON text or an already parsed value). Null means the row was written
 * before provenance was kept: it reads as `legacy`. Anything unreadable reads as untrusted.
 */
export function decodeOrigin(stored: unknown, legacy: MemoryOrigin): MemoryOrigin {
  if (stored === null || stored === undefined) return copyOrigin(legacy);
  let value: unknown = stored;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return copyOrigin(UNREADABLE_ORIGIN);
    }
  }
  const parsed = memoryOriginSchema.safeParse(value);
  return parsed.success ? parsed.data : copyOrigin(UNREADABLE_ORIGIN);
}

/**
 * The origin of a long-term row written before provenance was kept, or written now without
 * one: a `note` (stored by the owner through POST /memory) is the owner's; every other type
 * (`turn` rows hold the owner's message AND Hearth's reply, so the lesser of the two; `summary`,
 * `archive` and `orchestrator` rows are Hearth's writing) is Hearth's.
 */
export function defaultEntryOrigin(type: string | undefined): MemoryOrigin {
  return copyOrigin(type === 'note' ? OWNER_ORIGIN : HEARTH_ORIGIN);
}

/** The origin of a short-term item without one: the user's words are the owner's. */
export function defaultItemOrigin(role: string): MemoryOrigin {
  return copyOrigin(role === 'user' || role === 'note' ? OWNER_ORIGIN : HEARTH_ORIGIN);
}
