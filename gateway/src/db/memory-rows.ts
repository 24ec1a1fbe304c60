/**
 * Row rules shared by the SQLite and PostgreSQL long-term memory repositories: validation of
 * importance, timestamps and limits, id handling, and the stored form of embeddings
 * (Float32, little-endian).
 */
import { HearthError } from '../errors.ts';
import {
  copyOrigin,
  decodeOrigin,
  defaultEntryOrigin,
  normaliseOrigin,
  UNREADABLE_ORIGIN,
  type MemoryEntry,
  type MemoryOrigin,
} from '../memory/ports.ts';

export function importance(value: number): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    throw new HearthError(
      'validation',
      `importance_score must be a number from 0 to 1 (got ${String(value)}).`,
    );
  return value;
}

export function epochSeconds(value: number): number {
  if (!Number.isFinite(value))
    throw new HearthError('validation', `created_at must be epoch seconds (got ${value}).`);
  return Math.floor(value);
}

export function rowLimit(value: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new HearthError('validation', `limit must be a whole number ≥ 0 (got ${value}).`);
  return value;
}

export const afterRowId = (id: number): number =>
  Number.isFinite(id) ? Math.max(0, Math.floor(id)) : 0;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    parts.push(items.slice(start, start + size));
  return parts;
}

/** Entries in the order their ids were asked for; unknown and repeated ids are skipped. */
export function inRequestOrder(
  ids: readonly number[],
  found: Map<number, MemoryEntry>,
): MemoryEntry[] {
  const entries: MemoryEntry[] = [];
  for (const id of new Set(ids)) {
    const entry = found.get(id);
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Float32 little-endian bytes, the stored form of an embedding. */
export function encodeEmbedding(vector: Float32Array | null | undefined): Buffer | null {
  if (vector === undefined || vector === null) return null;
  if (!(vector instanceof Float32Array))
    throw new HearthError('validation', 'An embedding must be a Float32Array.');
  if (LITTLE_ENDIAN_HOST) return Buffer.copyBytesFrom(vector);
  const bytes = Buffer.allocUnsafe(vector.byteLength);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes;
}

export function decodeEmbedding(bytes: Uint8Array): Float32Array {
  if (bytes.byteLength % 4 !== 0)
    throw new Error(`A stored embedding has ${bytes.byteLength} bytes, not a multiple of 4.`);
  const vector = new Float32Array(bytes.byteLength / 4);
  if (LITTLE_ENDIAN_HOST) {
    new Uint8Array(vector.buffer).set(bytes);
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let index = 0; index < vector.length; index += 1)
      vector[index] = view.getFloat32(index * 4, true);
  }
  return vector;
}

/**
 * The origin a new row is stored with: the given one checked (a malformed origin is refused
 * with HearthError('validation') before anything is written), else the default of its type.
 */
export function storedOrigin(origin: MemoryOrigin | undefined, type: string): MemoryOrigin {
  if (origin === undefined) return defaultEntryOrigin(type);
  try {
    return normaliseOrigin(origin);
  } catch (error) {
    throw new HearthError(
      'validation',
      `origin: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * What rows written before provenance was kept (origin NULL) read as, by type — the same rule
 * as `defaultEntryOrigin`: a 'note' is the owner's, any other type Hearth's. JSON text, for
 * the adapters' `coalesce(origin, case when type = 'note' then … else … end)`.
 */
export const LEGACY_NOTE_ORIGIN = JSON.stringify(defaultEntryOrigin('note'));
export const LEGACY_OTHER_ORIGIN = JSON.stringify(defaultEntryOrigin('turn'));

/** Distinct stored origin texts kept decoded; a store holds few (most rows are trusted). */
const DECODED_ORIGINS = 256;
/** Longer origin texts (many untrusted sources) are decoded each time rather than kept. */
const DECODED_ORIGIN_CHARS = 1_024;
const decodedOrigins = new Map<string, MemoryOrigin>();

/**
 * A stored origin as read back; anything unreadable reads as untrusted (fail closed). Every
 * row a search returns carries one and they repeat, so the checked decoding of a JSON text is
 * kept (the schema check was most of the cost of mapping a row); each call gets its own copy.
 */
export function readOrigin(value: unknown): MemoryOrigin {
  if (typeof value !== 'string' || value.length > DECODED_ORIGIN_CHARS)
    return decodeOrigin(value, UNREADABLE_ORIGIN);
  let origin = decodedOrigins.get(value);
  if (origin === undefined) {
    origin = decodeOrigin(value, UNREADABLE_ORIGIN);
    if (decodedOrigins.size >= DECODED_ORIGINS) decodedOrigins.clear();
    decodedOrigins.set(value, origin);
  }
  return copyOrigin(origin);
}

/**
 * The origin a history message is stored with: null (the role's default) or the given one
 * checked; a malformed origin is refused with HearthError('validation') before anything is
 * written.
 */
export function storedHistoryOrigin(origin: MemoryOrigin | null): MemoryOrigin | null {
  if (origin === null) return null;
  try {
    return normaliseOrigin(origin);
  } catch (error) {
    throw new HearthError(
      'validation',
      `origin: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** A history message's stored origin as read back: null stays null, anything unreadable is untrusted. */
export const readHistoryOrigin = (value: unknown): MemoryOrigin | null =>
  value === null || value === undefined ? null : readOrigin(value);

/** Distinct untrusted origins a load reports for messages past its limit, at most this many. */
export const EARLIER_ORIGINS = 64;
