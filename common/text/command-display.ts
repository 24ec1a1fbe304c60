/**
 * A command shown to a person who is about to approve it: the whole command, nothing cut,
 * nothing that can hide. Every approval surface (web card, dashboard, chat notice, push) shows
 * this form, so that `ls -la` + 400 spaces + `; curl … | sh` cannot pass for `ls -la`.
 *
 * This file has no imports: the gateway, the dashboard and the web client (which may not import
 * the gateway) all import it from common/text/.
 */

/** One source of untrusted text the turn read before the agent asked (`untrusted_sources`). */
export interface UntrustedSource {
  kind: string;
  name: string;
  excerpt: string;
}

/** A command as a person should read it. */
export interface CommandDisplay {
  /** The whole command, marked: `lines` joined with `\n`. */
  text: string;
  /** Its lines: the command's own line breaks (each shown as `↵` at the end of its line). */
  lines: string[];
  /** The exact command's length in characters (code points). */
  length: number;
  /** `436 characters`, `1 character`, `1,234 characters, 3 lines`. */
  size: string;
  /**
   * True when the text shown differs from the command: a run of spaces, a tab, a line break or
   * a hidden character was made visible. Such a command cannot be read from its raw form.
   */
  marked: boolean;
}

/** Shown for a tab. */
export const TAB_MARK = '→';
/** Shown at the end of a line for the command's line break. */
export const NEWLINE_MARK = '↵';
/** Shown for each space of a run of 2 to `DOT_RUN_MAX` spaces. */
export const SPACE_MARK = '·';
/** Runs longer than this are shown as `␠×N`. */
export const DOT_RUN_MAX = 8;

/**
 * Characters shown as escapes rather than as themselves: C0 and C1 controls, DEL, bidi marks,
 * embeddings, overrides and isolates, zero-width and other invisible characters, the line and
 * paragraph separators, every space that is not U+0020 (no-break, en, em, thin, ideographic …),
 * blank-looking characters (Hangul fillers, the blank Braille pattern, musical formatting
 * marks), variation selectors, interlinear annotations, tag characters and lone surrogates.
 */
const HIDDEN =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- one character at a time, finding controls and combining marks is this module's job
  /^[\u0000-\u001f\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}\ud800-\udfff]$/u;

const SHORT: Readonly<Record<string, string>> = { '\r': '\\r', '\v': '\\v', '\f': '\\f' };

function escape(char: string): string {
  const short = SHORT[char];
  if (short !== undefined) return short;
  const code = char.codePointAt(0) ?? 0;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\u{${code.toString(16)}}`;
}

function spaces(run: number): string {
  if (run === 1) return ' ';
  return run <= DOT_RUN_MAX ? SPACE_MARK.repeat(run) : `␠×${run}`;
}

/** `1,234` (grouped the same everywhere, whatever the locale). */
const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The display form of `command` (pure; linear in its length). */
export function displayCommand(command: string): CommandDisplay {
  const lines: string[] = [];
  let line = '';
  let run = 0;
  let length = 0;
  let marked = false;
  const endRun = () => {
    if (run === 0) return;
    if (run > 1) marked = true;
    line += spaces(run);
    run = 0;
  };
  for (const char of command) {
    length += 1;
    if (char === ' ') {
      run += 1;
      continue;
    }
    endRun();
    if (char === '\n') {
      lines.push(line + NEWLINE_MARK);
      line = '';
      marked = true;
    } else if (char === '\t') {
      line += TAB_MARK;
      marked = true;
    } else if (HIDDEN.test(char)) {
      line += escape(char);
      marked = true;
    } else {
      line += char;
    }
  }
  endRun();
  lines.push(line);
  const size =
    `${grouped(length)} character${length === 1 ? '' : 's'}` +
    (lines.length > 1 ? `, ${grouped(lines.length)} lines` : '');
  return { text: lines.join('\n'), lines, length, size, marked };
}

/** What the marks mean, said next to a marked command. */
export const MARKS_LEGEND =
  'runs of spaces shown as · or ␠×N, tabs as →, line breaks as ↵, hidden characters as \\ escapes';

/** The length, and what the marks mean when there are any: `426 characters; runs of …`. */
export function commandSize(display: CommandDisplay): string {
  return display.marked ? `${display.size}; ${MARKS_LEGEND}` : display.size;
}

/** Commands up to this long, with nothing marked, are shown without a stated length. */
export const GLANCE_MAX = 80;

/**
 * Whether `command` can be read whole at a glance on a surface that shows at most `max`
 * characters: nothing was marked and it is no longer than that. A surface that cannot show the
 * command whole (a push notification) does not offer Approve otherwise.
 */
export function readableAtAGlance(display: CommandDisplay, max: number): boolean {
  return !display.marked && display.length <= max;
}

/** `text` with every character that could hide or move other text escaped, on one line. */
export function displayInline(text: string): string {
  return displayCommand(text).lines.join(' ');
}

/**
 * The sources that tainted the turn, one line each: `After reading web page example.org:
 * «ignore previous instructions…»`; empty for a clean turn.
 */
export function sourceLines(sources: readonly UntrustedSource[] | undefined): string[] {
  return (sources ?? []).map((s) =>
    // A secret is not something the turn read: it is what the call would carry out.
    s.kind === 'secret'
      ? `It would send ${displayInline(s.name)}: «${displayInline(s.excerpt)}»`
      : `After reading ${displayInline(s.kind)} ${displayInline(s.name)}: «${displayInline(s.excerpt)}»`,
  );
}

/**
 * `untrusted_sources` read from a record that may or may not have it (older gateways, the
 * generated client before the field): the well-formed entries, or an empty list.
 */
export function untrustedSourcesOf(record: unknown): UntrustedSource[] {
  const value =
    typeof record === 'object' && record !== null
      ? (record as { untrusted_sources?: unknown }).untrusted_sources
      : undefined;
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { kind, name, excerpt } = entry as Record<string, unknown>;
    return typeof kind === 'string' && typeof name === 'string' && typeof excerpt === 'string'
      ? [{ kind, name, excerpt }]
      : [];
  });
}
