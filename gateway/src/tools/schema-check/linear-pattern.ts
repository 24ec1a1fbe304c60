/**
 * JSON Schema `pattern`s (ECMA-262 regular expressions) run on RE2 (re2js): matching takes time
 * linear in the input whatever the pattern, so a tool's schema cannot stall anything with a
 * pattern such as `^(a|a)+$`. The JavaScript escapes RE2 lacks are rewritten to their RE2 form;
 * what needs a backtracking engine (lookaround, back-references) or exceeds RE2's limits is an
 * `UnsafePatternError` naming the pattern, and the schema holding it is refused.
 */
import { re2, type RE2JS } from '../../text/re2.ts';

/** Longest part of a pattern quoted in an error. */
const SHOWN_CHARS = 80;

/** A pattern no linear-time engine runs: the schema holding it cannot be checked safely. */
export class UnsafePatternError extends Error {
  override readonly name = 'UnsafePatternError';
}

const hex = (code: number): string => `\\x{${code.toString(16)}}`;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const HEX_BRACED = /^\{([0-9a-fA-F]{1,6})\}/;

/**
 * `pattern` with the ECMA-262 escapes RE2 does not know written the RE2 way: `\uXXXX` and
 * `\u{X…}` as `\x{…}`, `\cX` as the control character, `\0` as NUL, `[\b]` as backspace.
 * Everything else is left for RE2 to accept or refuse.
 */
export function toRe2Syntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i]!;
    if (char !== '\\') {
      if (char === '[' && !inClass) inClass = true;
      else if (char === ']' && inClass) inClass = false;
      out += char;
      continue;
    }
    const next = pattern[i + 1];
    if (next === undefined) {
      out += char;
      continue;
    }
    if (next === 'u') {
      const four = pattern.slice(i + 2, i + 6);
      const braced = HEX_BRACED.exec(pattern.slice(i + 2));
      if (braced) {
        out += hex(Number.parseInt(braced[1]!, 16));
        i += 1 + braced[0].length;
        continue;
      }
      if (HEX4.test(four)) {
        out += hex(Number.parseInt(four, 16));
        i += 5;
        continue;
      }
    } else if (next === 'c' && /^[A-Za-z]$/.test(pattern[i + 2] ?? '')) {
      out += hex(pattern.charCodeAt(i + 2) % 32);
      i += 2;
      continue;
    } else if (next === '0' && !/^[0-9]$/.test(pattern[i + 2] ?? '')) {
      out += hex(0);
      i += 1;
      continue;
    } else if (next === 'b' && inClass) {
      out += hex(8);
      i += 1;
      continue;
    }
    out += char + next;
    i += 1;
  }
  return out;
}

/** Compiles a JSON Schema pattern for RE2; an `UnsafePatternError` when RE2 cannot run it. */
export function compileLinear(pattern: string): RE2JS {
  try {
    return re2().compile(toRe2Syntax(pattern));
  } catch (error) {
    const shown = pattern.length > SHOWN_CHARS ? `${pattern.slice(0, SHOWN_CHARS)}…` : pattern;
    const why = error instanceof Error ? error.message : String(error);
    throw new UnsafePatternError(
      `pattern ${JSON.stringify(shown)} cannot run in linear time (${why}); lookaround, ` +
        'back-references and huge repeat counts need a backtracking engine, which tool schemas ' +
        'are never run on',
    );
  }
}

/** What ajv's `code.regExp` wants: something with `test`, made from a pattern and flags. */
export interface LinearRegExp {
  test(text: string): boolean;
  toString(): string;
}

/** ajv's `code.regExp`: every `pattern` and `patternProperties` key runs on RE2. */
export function linearRegExp(pattern: string, flags: string): LinearRegExp {
  const compiled = compileLinear(pattern);
  return {
    test: (text) => compiled.test(text),
    toString: () => `/${pattern}/${flags}`,
  };
}
