/**
 * A TOML syntax error as a newcomer needs it: the parser's reason, the line number, the line
 * itself and a caret under the column. Dependency-free, so the light CLI paths can use it.
 */

/** The parser's error: its message starts with a location line, then the text and a caret. */
interface LocatedError {
  message: string;
  line?: unknown;
  column?: unknown;
}

/** The parser's reason without its own location and excerpt (its last non-empty line). */
function reasonOf(message: string): string {
  const lines = message.split('\n').filter((line) => line.trim() !== '');
  return lines.at(-1)?.trim() ?? message;
}

/** `Invalid TOML in <path> at line L, column C: <reason>` then the line and a caret. */
export function tomlSyntaxMessage(path: string, text: string, error: unknown): string {
  if (!(error instanceof Error)) return `Invalid TOML in ${path}: ${String(error)}`;
  const { line, column } = error as LocatedError;
  const reason = reasonOf(error.message);
  if (typeof line !== 'number' || typeof column !== 'number' || line < 1) {
    return `Invalid TOML in ${path}: ${reason}`;
  }
  // The parser's line is 1-based, its column 0-based.
  const source = (text.split(/\r?\n/)[line - 1] ?? '').replace(/\t/g, ' ').slice(0, 200);
  const gutter = `${line} | `;
  const caret = `${' '.repeat(gutter.length - 2)}| ${' '.repeat(Math.min(Math.max(column, 0), 200))}^`;
  return [
    `Invalid TOML in ${path} at line ${line}, column ${column + 1}: ${reason}`,
    `${gutter}${source}`,
    caret,
  ].join('\n');
}
