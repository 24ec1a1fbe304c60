/**
 * The provenance of one turn's context: a ledger of the untrusted sources that entered it, kept
 * while the turn runs and shown to the gate with every gated call (`ToolContext.untrustedSources`).
 *
 * What counts as untrusted (everything else is the owner's or Hearth's own):
 * - a tool result of the browser (`browser`), of an external MCP server's tool (`mcp`), of a
 *   skill, hub package or plugin tool (`skill`; any origin that is not `builtin` or `mcp:` counts
 *   here, so an unknown origin is never trusted);
 * - shell output (`shell`), unless every command of the line is one of `LOCAL_PROGRAMS` (programs
 *   that print only facts of the machine or what their arguments say, never file contents or
 *   network data) and the line has no substitution or input redirection;
 * - a message from anyone but the paired owner that the caller puts into the turn (`channel`);
 * - a recalled memory whose `origin.trust` is `untrusted` (`memory`), in the prompt's memory block
 *   or in a `memory_search` result (the tool notes it through `ToolContext.noteUntrusted`).
 * A call the gate denied put nothing into the context: its result is the gate's own text.
 */
import { cleanText, DENIED_TEXT, EXCERPT_CHARS, type UntrustedSource } from '../approvals/ports.ts';
import {
  isUntrusted,
  MAX_ORIGIN_SOURCES,
  MAX_SOURCE_NAME_CHARS,
  type MemoryOrigin,
  type OriginSource,
  type RetrievedMemory,
} from '../memory/ports.ts';
import type { Tool } from '../tools/ports.ts';

/** Programs whose output is never data the owner did not write (see the module comment). */
export const LOCAL_PROGRAMS: ReadonlySet<string> = new Set([
  'date',
  'df',
  'du',
  'echo',
  'false',
  'hostname',
  'id',
  'mkdir',
  'printf',
  'pwd',
  'sleep',
  'test',
  'touch',
  'true',
  'uname',
  'uptime',
  'wc',
  'which',
  'whoami',
]);

/** A substitution, an input redirection or a here-document: the line reads something. */
const READS = /`|\$\(|<|\$\{/;
/** `NAME=value` before a program. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/;

/** Whether a shell command line's output is the machine's own (see the module comment). */
export function shellOutputIsLocal(command: string): boolean {
  if (READS.test(command)) return false;
  for (const part of command.split(/&&|\|\||[;&|\n]/)) {
    const words = part
      .trim()
      .split(/\s+/)
      .filter((word) => !ASSIGNMENT.test(word));
    const program = words[0];
    if (program === undefined || program === '') continue;
    const name = program.slice(program.lastIndexOf('/') + 1);
    if (!LOCAL_PROGRAMS.has(name)) return false;
  }
  return true;
}

/** The name of the first source a memory's origin lists (`<kind> <name>`), or `memory`. */
function memorySourceName(origin: MemoryOrigin): string {
  const first = origin.sources[0];
  return first ? [first.kind, first.name].filter((part) => part !== '').join(' ') : 'memory';
}

/** The recalled memories that carry an untrusted origin, as sources (kind `memory`). */
export function untrustedMemorySources(memories: readonly RetrievedMemory[]): UntrustedSource[] {
  const sources: UntrustedSource[] = [];
  for (const memory of memories) {
    if (!isUntrusted(memory.origin)) continue;
    sources.push({
      kind: 'memory',
      name: memorySourceName(memory.origin),
      excerpt: memory.content,
    });
  }
  return sources;
}

/**
 * The origin of what a turn makes (its memory rows, through the conversation its summaries):
 * untrusted with the turn's sources when it read any, else undefined (the memory area's
 * defaults: the owner's words and Hearth's reply).
 */
export function turnOrigin(sources: readonly UntrustedSource[]): MemoryOrigin | undefined {
  const seen = new Set<string>();
  const kept: OriginSource[] = [];
  for (const { kind, name } of sources) {
    // A secret is named by the gate, never read into a turn: nothing to remember of it.
    if (kind === 'secret') continue;
    const key = `${kind}\u0000${name}`;
    if (seen.has(key) || kept.length >= MAX_ORIGIN_SOURCES) continue;
    seen.add(key);
    kept.push({ kind, name: name.slice(0, MAX_SOURCE_NAME_CHARS) });
  }
  return kept.length === 0 ? undefined : { trust: 'untrusted', sources: kept };
}

const excerpt = (text: string): string => cleanText(text, EXCERPT_CHARS);

/** One turn's ledger. Recording is O(1); the view is rebuilt only after something was added. */
export interface ProvenanceLedger {
  /** Records one untrusted source (its excerpt is capped and cleaned). */
  add: (source: UntrustedSource) => void;
  /** Records a tool's result when its origin (and, for shell, its command) is untrusted. */
  toolResult(
    tool: Pick<Tool, 'name' | 'source'>,
    args: Record<string, unknown>,
    content: string,
  ): void;
  /** Records the recalled memories that carry an untrusted origin. */
  memories(memories: readonly RetrievedMemory[]): void;
  /** The sources so far, in the order they entered (the same array while nothing is added). */
  sources: () => readonly UntrustedSource[];
}

export function createProvenanceLedger(): ProvenanceLedger {
  const entries: UntrustedSource[] = [];
  let view: readonly UntrustedSource[] = entries.slice();
  const add = (source: UntrustedSource): void => {
    entries.push({ kind: source.kind, name: source.name, excerpt: excerpt(source.excerpt) });
    view = entries.slice();
  };
  return {
    add,
    toolResult(tool, args, content) {
      if (content === DENIED_TEXT) return;
      if (tool.source === 'builtin') {
        if (tool.name === 'browser')
          add({ kind: 'browser', name: browserName(args), excerpt: content });
        else if (tool.name === 'shell') {
          const command = typeof args.command === 'string' ? args.command : '';
          if (!shellOutputIsLocal(command)) add({ kind: 'shell', name: command, excerpt: content });
        }
        return;
      }
      if (tool.source.startsWith('mcp:')) add({ kind: 'mcp', name: tool.name, excerpt: content });
      else add({ kind: 'skill', name: tool.name, excerpt: content });
    },
    memories(memories) {
      for (const source of untrustedMemorySources(memories)) add(source);
    },
    sources: () => view,
  };
}

/** The browser call's URL when it has one, else `browser`. */
function browserName(args: Record<string, unknown>): string {
  return typeof args.url === 'string' && args.url !== '' ? args.url : 'browser';
}
