/**
 * Splits Python source into what the scanner needs, in one linear pass: per line, the code
 * with comments dropped and string contents blanked (`""`), and every string literal with
 * its line, whether it is triple-quoted, and the code just before it (to tell a
 * `description=` value or a docstring from any other string).
 */

export interface PyString {
  value: string;
  raw: string;
  line: number;
  triple: boolean;
  /** Up to 40 characters of code before the literal (across line breaks). */
  before: string;
}

export interface PyLexed {
  /** Index 0 is line 1. */
  codeLines: string[];
  strings: PyString[];
}

const TAIL = 40;

/** Whether the letters right before a quote (`f`, `rf`, `Fr`…) make it an f-string. */
function isFormatPrefix(before: string): boolean {
  let at = before.length - 1;
  let prefix = '';
  while (at >= 0 && prefix.length < 3 && /[a-zA-Z]/.test(before[at]!))
    prefix = before[at--]! + prefix;
  const p = prefix.toLowerCase();
  return (p === 'f' || p === 'rf' || p === 'fr') && (at < 0 || !/\w/.test(before[at]!));
}

/** The `{…}` parts of an f-string's text, joined by spaces (`{{` is a literal brace). */
function formatExpressions(text: string): string {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') {
      if (depth === 0 && text[i + 1] === '{') {
        i++;
        continue;
      }
      if (depth === 0) start = i + 1;
      depth++;
    } else if (ch === '}' && depth > 0) {
      depth--;
      if (depth === 0) out.push(text.slice(start, i));
    }
  }
  return out.join(' ');
}

export function lexPython(source: string): PyLexed {
  const codeLines: string[] = [];
  const strings: PyString[] = [];
  let parts: string[] = [];
  let tail = ''; // the last few characters of code, kept short so each update is O(1)
  let line = 1;
  let i = 0;
  const n = source.length;

  const code = (text: string): void => {
    parts.push(text);
    tail = (tail + text).slice(-TAIL);
  };
  const endLine = (): void => {
    codeLines.push(parts.join(''));
    parts = [];
    tail = (tail + ' ').slice(-TAIL);
    line++;
  };

  while (i < n) {
    const c = source[i]!;
    if (c === '\n') {
      endLine();
      i++;
    } else if (c === '#') {
      const end = source.indexOf('\n', i);
      i = end < 0 ? n : end;
    } else if (c === '"' || c === "'") {
      const triple = source[i + 1] === c && source[i + 2] === c;
      const width = triple ? 3 : 1;
      const startLine = line;
      const before = tail;
      const start = i;
      i += width;
      const value: string[] = [];
      let runStart = i;
      while (i < n) {
        const d = source[i]!;
        if (d === '\\' && i + 1 < n) {
          if (source[i + 1] === '\n') {
            value.push(source.slice(runStart, i));
            codeLines.push(parts.join(''));
            parts = [];
            line++;
            i += 2;
            runStart = i;
          } else {
            i += 2;
          }
          continue;
        }
        if (d === c && (!triple || (source[i + 1] === c && source[i + 2] === c))) break;
        if (d === '\n') {
          if (!triple) break; // an unterminated one-line string ends at the line break
          codeLines.push(parts.join(''));
          parts = [];
          line++;
        }
        i++;
      }
      value.push(source.slice(runStart, i));
      if (i < n && source[i] === c) i += width;
      const text = value.join('');
      strings.push({ value: text, raw: source.slice(start, i), line: startLine, triple, before });
      code(c + c);
      // An f-string's {expressions} are code: `f"{exec(p)}"` must not hide a call.
      if (isFormatPrefix(before)) code(` ${formatExpressions(text)} `);
    } else {
      let end = i + 1;
      while (end < n) {
        const d = source[end];
        if (d === '\n' || d === '#' || d === '"' || d === "'") break;
        end++;
      }
      code(source.slice(i, end));
      i = end;
    }
  }
  codeLines.push(parts.join(''));
  return { codeLines, strings };
}
