/**
 * re2js (RE2 regular expressions, matching in linear time), loaded the first time a pattern is
 * compiled or quoted: ~250 KB of code that a gateway with no allowlist `arg_pattern` and no
 * schema `pattern` never runs, so it is not loaded at start. It is required synchronously
 * (its CommonJS build) because its callers are synchronous.
 */
import { createRequire } from 'node:module';
import type * as Re2js from 're2js';

export type RE2JS = Re2js.RE2JS;

const require = createRequire(import.meta.url);
let loaded: typeof Re2js.RE2JS | undefined;

/** The RE2JS class: `re2().compile(pattern)`, `re2().quote(text)`. */
export function re2(): typeof Re2js.RE2JS {
  return (loaded ??= (require('re2js') as typeof Re2js).RE2JS);
}
