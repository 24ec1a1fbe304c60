/**
 * Quote removal for words that must be plain literals. A word is literal when it is made only of
 * unquoted text, `'…'` and `"…"` with no expansion inside; the result is the string the shell
 * passes to the program (`'l''s'`, `"ls"` and `l\s` are all `ls`). Anything the shell would
 * expand makes the word non-literal and the line opaque:
 *
 * - parameter, command, process and arithmetic expansion (the parser's own nodes);
 * - an unescaped `$` or backtick left in literal text;
 * - filename globbing: an unquoted `*` or `?`, or an unquoted `[` followed later by an unquoted
 *   `]` (so `[ -f x ]` stays literal); case patterns allow globs, since they never touch files;
 * - brace expansion (`{a,b}`, `{1..3}`), found with the parser's own brace splitting;
 * - tilde expansion: an unquoted `~` at the start of the word or right after `=` or `:`;
 * - `$'…'` and `$"…"` quoting.
 */
import { at, OpaqueCommand } from './opaque.ts';
import type { ShDblQuoted, ShellParser, ShLit, ShSglQuoted, ShWord } from './shell-parser.ts';

export interface LiteralOptions {
  /** Allow glob characters (case patterns). */
  allowGlob?: boolean;
}

const PART_REASONS: Readonly<Record<string, string>> = {
  ParamExp: 'parameter expansion',
  CmdSubst: 'command substitution',
  ProcSubst: 'process substitution',
  ArithmExp: 'arithmetic expansion',
  ExtGlob: 'extended glob',
  BraceExp: 'brace expansion',
};

function partReason(type: string): string {
  return PART_REASONS[type] ?? `unsupported word part ${type}`;
}

interface Scan {
  out: string;
  /** An unquoted, unescaped `[` was seen in this word. */
  openBracket: boolean;
}

/** Appends an unquoted literal, removing backslash escapes and refusing expansions. */
function scanUnquoted(lit: ShLit, scan: Scan, isLastPart: boolean, options: LiteralOptions): void {
  const value = lit.Value;
  for (let i = 0; i < value.length; i++) {
    const ch = value.charAt(i);
    if (ch === '\\') {
      const next = value.charAt(i + 1);
      i++;
      if (next === '\n') continue;
      scan.out += next === '' ? '\\' : next;
      continue;
    }
    if (ch === '$' && !(isLastPart && i === value.length - 1)) {
      throw new OpaqueCommand(`parameter expansion at ${at(lit)}`);
    }
    if (ch === '`') throw new OpaqueCommand(`command substitution at ${at(lit)}`);
    if (!options.allowGlob) {
      if (ch === '*' || ch === '?') throw new OpaqueCommand(`glob ${ch} at ${at(lit)}`);
      if (ch === '[') scan.openBracket = true;
      if (ch === ']' && scan.openBracket) throw new OpaqueCommand(`glob [ ] at ${at(lit)}`);
    }
    if (ch === '~') {
      const previous = scan.out.charAt(scan.out.length - 1);
      if (scan.out === '' || previous === '=' || previous === ':') {
        throw new OpaqueCommand(`tilde expansion at ${at(lit)}`);
      }
    }
    scan.out += ch;
  }
}

/** Inside double quotes a backslash only escapes `$`, backtick, `"`, `\` and newline. */
function scanDoubleQuoted(quoted: ShDblQuoted, parser: ShellParser, scan: Scan): void {
  if (quoted.Dollar) throw new OpaqueCommand(`$"…" quoting at ${at(quoted)}`);
  for (const part of quoted.Parts) {
    const type = parser.nodeType(part);
    if (type !== 'Lit') throw new OpaqueCommand(`${partReason(type)} at ${at(part)}`);
    const value = (part as ShLit).Value;
    for (let i = 0; i < value.length; i++) {
      const ch = value.charAt(i);
      if (ch === '\\') {
        const next = value.charAt(i + 1);
        if (next === '\n') {
          i++;
          continue;
        }
        if (next === '$' || next === '`' || next === '"' || next === '\\') {
          scan.out += next;
          i++;
          continue;
        }
        scan.out += ch;
        continue;
      }
      if (ch === '$' || ch === '`') throw new OpaqueCommand(`expansion at ${at(part)}`);
      scan.out += ch;
    }
  }
}

/** The word after quote removal, or an {@link OpaqueCommand} naming what the shell would expand. */
export function literalWord(
  word: ShWord,
  parser: ShellParser,
  options: LiteralOptions = {},
): string {
  // Read before splitting: brace splitting rewrites the word, and its new parts have no position.
  const where = at(word);
  const parts = parser.splitBraces(word).Parts;
  const scan: Scan = { out: '', openBracket: false };
  parts.forEach((part, index) => {
    const type = parser.nodeType(part);
    if (type === 'Lit') {
      scanUnquoted(part as ShLit, scan, index === parts.length - 1, options);
    } else if (type === 'SglQuoted') {
      const quoted = part as ShSglQuoted;
      if (quoted.Dollar) throw new OpaqueCommand(`$'…' quoting at ${at(quoted)}`);
      scan.out += quoted.Value;
    } else if (type === 'DblQuoted') {
      scanDoubleQuoted(part as ShDblQuoted, parser, scan);
    } else {
      throw new OpaqueCommand(`${partReason(type)} at ${type === 'BraceExp' ? where : at(part)}`);
    }
  });
  return scan.out;
}

/** Python's `shlex.quote`: the string as one shell word, quoted only when it needs to be. */
export function shellQuote(value: string): string {
  if (value === '') return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}
