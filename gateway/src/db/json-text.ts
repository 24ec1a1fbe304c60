/**
 * Serialises a setting value for storage. Both adapters write this text themselves (rather than
 * letting drizzle encode the column) because drizzle sends a JS `null` as SQL NULL, while a
 * setting may legitimately hold the JSON value null.
 */
export function toJsonText(value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) {
    throw new TypeError(`A setting value must be representable as JSON (got ${typeof value}).`);
  }
  return text;
}

/** Epoch seconds, the unit of every `*_at` column. */
export function nowEpochSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
