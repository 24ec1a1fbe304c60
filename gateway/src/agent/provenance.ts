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
 *   or in a `memory_search` result (the tool notes it through `ToolContext.noteUntrusted`);
 * - what the conversation sent with the turn still holds from earlier turns: history messages
 *   with an untrusted origin, and the summary (or messages that left the history) when the
 *   conversation's origin is untrusted — each source under its own kind, named
 *   `earlier in this conversation: <name>`;
 * - the description of an offered tool a third party wrote (`tool_description`): an external
 *   MCP server's, a hub package's, any tool but Hearth's built-ins and the owner's own skills
 *   (`Tool.describedBy`).
 * A call the gate denied put nothing into the context: its result is the gate's own text.
 * What the turn makes (its reply in the history, its memory rows) takes `origin()`.
 */
import { cleanText, DENIED_TEXT, EXCERPT_CHARS, type UntrustedSource } from '../approvals/ports.ts';
import {
  isUntrusted,
  MAX_ORIGIN_SOURCES,
  MAX_SOURCE_NAME_CHARS,
  type Conversation,
  type MemoryOrigin,
  type OriginSource,
  type RetrievedMemory,
} from '../memory/ports.ts';
import { OWNER_DESCRIBED, type Tool } from '../tools/ports.ts';

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

/** How a source from earlier in the conversation is named: its own name after this. */
export const EARLIER_IN_CONVERSATION = 'earlier in this conversation:';

/** What an untrusted origin without sources is named as, seeded from the conversation. */
const UNNAMED_EARLIER: OriginSource = { kind: 'memory', name: 'untrusted content' };

/** Sources as an origin: each kind and name once, capped; secrets left out (never read). */
function originOf(sources: Iterable<OriginSource>): MemoryOrigin | undefined {
  const seen = new Set<string>();
  const kept: OriginSource[] = [];
  for (const { kind, name } of sources) {
    // A secret is named by the gate, never read into a turn: nothing to remember of it.
    if ((kind as string) === 'secret') continue;
    const key = `${kind}\u0000${name}`;
    if (seen.has(key) || kept.length >= MAX_ORIGIN_SOURCES) continue;
    seen.add(key);
    kept.push({ kind, name: name.slice(0, MAX_SOURCE_NAME_CHARS) });
  }
  return kept.length === 0 ? undefined : { trust: 'untrusted', sources: kept };
}

/**
 * The origin of what is made from these sources (a forwarded message as stored in the
 * history): untrusted with them when there are any, else undefined (the defaults: the owner's
 * words and Hearth's reply).
 */
export function turnOrigin(sources: readonly UntrustedSource[]): MemoryOrigin | undefined {
  return originOf(sources as readonly OriginSource[]);
}

/** A third party's tool description as the source a turn that offers the tool holds. */
export function toolDescriptionSource(
  tool: Pick<Tool, 'name' | 'description' | 'source' | 'describedBy'>,
): UntrustedSource | undefined {
  if (tool.source === 'builtin' || tool.describedBy === OWNER_DESCRIBED) return undefined;
  const author =
    tool.describedBy ??
    (tool.source.startsWith('mcp:') ? `MCP server ${tool.source.slice(4)}` : tool.source);
  return {
    kind: 'tool_description',
    name: `${tool.name} (from ${author})`,
    excerpt: excerpt(tool.description),
  };
}

/**
 * The sources of the third-party descriptions among `tools`, each worked out once per tool
 * object (a registered tool is the same object turn after turn).
 */
export function createToolDescriptionSources(): (
  tools: readonly Tool[],
) => readonly UntrustedSource[] {
  const known = new WeakMap<Tool, UntrustedSource | null>();
  return (tools) => {
    const sources: UntrustedSource[] = [];
    for (const tool of tools) {
      let source = known.get(tool);
      if (source === undefined) {
        source = toolDescriptionSource(tool) ?? null;
        known.set(tool, source);
      }
      if (source !== null) sources.push(source);
    }
    return sources;
  };
}

const excerpt = (text: string): string => cleanText(text, EXCERPT_CHARS);

/**
 * One turn's ledger. Recording is O(1); the view is rebuilt only when asked after something
 * was added. It shows what the turn itself read first, then what the conversation it sends
 * upstream still holds from earlier turns, then the third-party tool descriptions it offers.
 */
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
  /**
   * Records what the conversation sent with the turn holds from untrusted content: the
   * messages of its history that carry an untrusted origin, and its summary (or what left the
   * history before) when the conversation's origin is untrusted. Each source is named as
   * `earlier in this conversation: <name>`, with its first message as the excerpt.
   */
  conversation(conversation: Conversation): void;
  /** Records the third-party descriptions of the tools the turn offers (precomputed sources). */
  toolDescriptions(sources: readonly UntrustedSource[]): void;
  /** The sources so far (the same array while nothing is added). */
  sources: () => readonly UntrustedSource[];
  /**
   * The origin of what the turn makes (its reply in the history, its memory rows): untrusted
   * with what it read itself and what its conversation held (names as they first were), or
   * undefined for a clean turn. Tool descriptions are left out: every turn that offers the
   * tool records its description again.
   */
  origin(): MemoryOrigin | undefined;
}

export function createProvenanceLedger(): ProvenanceLedger {
  /** What the turn read itself, in the order it entered. */
  const own: UntrustedSource[] = [];
  /** What its conversation still holds from earlier turns, and those sources' own names. */
  const earlier: UntrustedSource[] = [];
  const earlierOrigins: OriginSource[] = [];
  let described: readonly UntrustedSource[] = [];
  let view: readonly UntrustedSource[] = [];
  let stale = false;
  const add = (source: UntrustedSource): void => {
    own.push({ kind: source.kind, name: source.name, excerpt: excerpt(source.excerpt) });
    stale = true;
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
    conversation(conversation) {
      const seen = new Set<string>();
      const seed = (origin: MemoryOrigin | undefined, text: string) => {
        if (!isUntrusted(origin)) return;
        const sources = origin?.sources.length ? origin.sources : [UNNAMED_EARLIER];
        for (const source of sources) {
          const key = `${source.kind}\u0000${source.name}`;
          if (seen.has(key)) continue;
          seen.add(key);
          earlier.push({
            kind: source.kind,
            name: `${EARLIER_IN_CONVERSATION} ${source.name}`,
            excerpt: excerpt(text),
          });
          earlierOrigins.push({ kind: source.kind, name: source.name });
          stale = true;
        }
      };
      seed(conversation.origin, conversation.summary ?? '');
      for (const message of conversation.history)
        if (message.origin !== undefined) seed(message.origin, message.content);
    },
    toolDescriptions(sources) {
      if (sources.length === 0) return;
      described = sources;
      stale = true;
    },
    sources() {
      if (stale) {
        view = [...own, ...earlier, ...described];
        stale = false;
      }
      return view;
    },
    origin: () => originOf([...(own as readonly OriginSource[]), ...earlierOrigins]),
  };
}

/** The browser call's URL when it has one, else `browser`. */
function browserName(args: Record<string, unknown>): string {
  return typeof args.url === 'string' && args.url !== '' ? args.url : 'browser';
}
