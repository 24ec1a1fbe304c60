import { z } from 'zod';
import { validationError } from '../errors.ts';

/** Validates one part of a request; a failure is a 422 whose detail names the field. */
export function parseRequestPart<T extends z.ZodType>(
  schema: T,
  value: unknown,
  part: 'body' | 'query' | 'path',
): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const detail = result.error.issues
    .map((issue) => {
      const field = [part, ...issue.path.map(String)].join('.');
      if (issue.code === 'unrecognized_keys')
        return `${part}: unknown field(s) ${issue.keys.join(', ')}`;
      return `${field}: ${issue.message}`;
    })
    .join('; ');
  throw validationError(detail);
}

/** True when `value` holds a C0 control character (U+0000–U+001F) or DEL (U+007F). */
function hasControlChars(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * A check for every request string that is stored or sent on (secret, URL, model id,
 * pattern, name): a NUL, CR/LF, tab, escape or DEL is refused with a 422 naming the field.
 * Chain it before any `.trim()` so that a trailing CR/LF is refused, not silently cut:
 * `z.string().check(noControlChars).trim()`.
 */
export const noControlChars = z.refine<string>(
  (value) => !hasControlChars(value),
  'must not contain control characters (U+0000 to U+001F, U+007F)',
);
