/**
 * How the dashboard shows a command for approval (pure functions): a row of the approvals pane
 * when the whole command fits on it unmarked, and otherwise the review's lines (the untrusted
 * sources the turn read, then the whole command, marked, wrapped to the terminal's width), which
 * must be scrolled to the end before `a` approves.
 */
import {
  commandSize,
  displayCommand,
  sourceLines,
  untrustedSourcesOf,
} from '../../../common/text/command-display.ts';
import type { PendingApproval } from './api-types.ts';
import { safe } from './format.ts';

/** Columns a character takes in a terminal: 2 for East Asian wide and emoji, else 1. */
function columns(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  return (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f000 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
    ? 2
    : 1;
}

/** `line` cut into pieces of at most `width` columns; nothing dropped, nothing added. */
export function wrapLine(line: string, width: number): string[] {
  const w = Math.max(2, width);
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const char of line) {
    const c = columns(char);
    if (used + c > w) {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += char;
    used += c;
  }
  pieces.push(piece);
  return pieces;
}

/** The sources, what asks, the whole command and its size, wrapped to `width`. */
export function reviewLines(approval: PendingApproval, width: number): string[] {
  const shown = displayCommand(approval.command);
  const sources = sourceLines(untrustedSourcesOf(approval));
  const tool = safe(approval.tool_name);
  const intro =
    sources.length > 0
      ? [...sources, `then the agent asks to run ${tool}:`]
      : [`${tool} wants to run:`];
  return [...intro, ...shown.lines, `(${commandSize(shown)})`].flatMap((line) =>
    wrapLine(line, width),
  );
}

/**
 * The pane's row for `approval`, and whether it shows the whole command: one line, from a clean
 * turn, its display form (with its length when marked) fitting the row. A row that does not
 * shows its start, cut, then its size and `a reads all` (cut too in a narrow pane: `a` opens the
 * review either way).
 */
export function approvalRow(
  approval: PendingApproval,
  options: { selected: boolean; left: number; width: number },
): { text: string; whole: boolean } {
  const prefix =
    `${options.selected ? '>' : ' '} ${String(options.left).padStart(3)}s ` +
    `${approval.id.slice(0, 8)} ${safe(approval.tool_name)}: `;
  const shown = displayCommand(approval.command);
  const tainted = untrustedSourcesOf(approval).length > 0;
  const full = `${prefix}${shown.text}${shown.marked ? ` (${shown.size})` : ''}`;
  const whole = !tainted && shown.lines.length === 1 && [...full].length <= options.width;
  if (whole) return { text: full, whole };
  const size = shown.size.replace(' characters', ' chars');
  const suffix = ` [${tainted ? 'untrusted source read, ' : ''}${size}: a reads all]`;
  const room = Math.max(
    options.width - [...prefix].length - [...suffix].length,
    Math.min(8, options.width - [...prefix].length),
  );
  const first = [...(shown.lines[0] ?? '')];
  const head =
    room < 2
      ? ''
      : first.length <= room && shown.lines.length === 1
        ? first.join('')
        : `${first.slice(0, room - 1).join('')}…`;
  return { text: `${prefix}${head}${suffix}`, whole };
}
