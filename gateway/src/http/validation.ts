import type { z } from 'zod';
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
