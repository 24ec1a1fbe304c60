import { z } from 'zod';

/** What put untrusted content into a turn's context. */
export type UntrustedKind =
  | 'browser'
  | 'mcp'
  | 'skill'
  | 'shell'
  | 'channel'
  | 'memory'
  | 'tool_description'
  /** Not content the turn read: something secret-looking the call would carry out. */
  | 'secret';

/**
 * One untrusted source of a turn's context, as every approval surface shows it: its kind, what
 * it was (a tool, a sender, a memory), and the start of what it said (control characters
 * removed, at most `EXCERPT_CHARS`).
 */
export interface UntrustedSource {
  kind: UntrustedKind;
  name: string;
  excerpt: string;
}

/** The longest excerpt an untrusted source carries. */
export const EXCERPT_CHARS = 200;

/** Longest `name` of an untrusted source (a tool, a sender, a URL). */
const NAME_CHARS = 120;
/** Sources one approval names at most (each kind and name once). */
export const MAX_SOURCES = 8;

/** An untrusted source as the routes and the shared board carry it. */
export const untrustedSourceSchema = z.object({
  kind: z.enum([
    'browser',
    'mcp',
    'skill',
    'shell',
    'channel',
    'memory',
    'tool_description',
    'secret',
  ]),
  name: z.string(),
  excerpt: z.string(),
});

// C0 and C1 controls, DEL, and the bidirectional and zero-width format characters.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g;

/** `text` on one line: controls become a space, runs of spaces one space, at most `max` chars. */
export function cleanText(text: string, max: number): string {
  // Only the start can be shown: a long tool result is not scanned whole.
  const flat = text
    .slice(0, max * 4)
    .replace(CONTROLS, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** A source as it is shown: name and excerpt cleaned and capped. */
export const shownSource = (source: UntrustedSource): UntrustedSource => ({
  kind: source.kind,
  name: cleanText(source.name, NAME_CHARS),
  excerpt: cleanText(source.excerpt, EXCERPT_CHARS),
});

/**
 * The sources an approval names: cleaned, each kind+name once (the first excerpt kept), at most
 * `MAX_SOURCES`.
 */
export function shownSources(sources: readonly UntrustedSource[]): UntrustedSource[] {
  const seen = new Set<string>();
  const out: UntrustedSource[] = [];
  for (const source of sources) {
    const shown = shownSource(source);
    const key = `${shown.kind}\u0000${shown.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(shown);
    if (out.length === MAX_SOURCES) break;
  }
  return out;
}

/** One line naming the sources, for the plain-text notice. */
export const sourcesLine = (sources: readonly UntrustedSource[]): string =>
  `The agent had read untrusted content: ${sources.map((s) => `${s.kind} ${s.name}`).join(', ')}`;
