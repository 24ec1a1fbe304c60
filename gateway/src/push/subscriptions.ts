import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../config/atomic-write.ts';

const base64url = (bytes: number, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be base64url`)
    .refine(
      (value) => Buffer.from(value, 'base64url').length === bytes,
      `${what} must be ${bytes} bytes`,
    );

/** A browser's PushSubscription JSON: an https endpoint and its P-256 key and auth secret. */
export const subscriptionSchema = z.object({
  endpoint: z
    .string()
    .max(2048)
    .pipe(z.url({ protocol: /^https$/, error: 'endpoint must be an https:// URL' })),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    // An uncompressed P-256 point: 0x04, then X and Y.
    p256dh: base64url(65, 'keys.p256dh').refine(
      (value) => Buffer.from(value, 'base64url')[0] === 0x04,
      'keys.p256dh must be an uncompressed P-256 public key',
    ),
    auth: base64url(16, 'keys.auth'),
  }),
});

export type PushSubscriptionRecord = z.output<typeof subscriptionSchema> & { created_at: string };

/** The subscription store's file name in the state directory (`{data_dir}`). */
export const PUSH_SUBSCRIPTIONS_FILE = 'push-subscriptions.json';

/** The stored push subscriptions, one per endpoint, kept in a JSON file (mode 0600). */
export interface SubscriptionFile {
  list(): PushSubscriptionRecord[];
  /** Adds or replaces the subscription of its endpoint; true when it is new. */
  put(record: PushSubscriptionRecord): Promise<boolean>;
  /** True when a subscription had that endpoint. */
  remove(endpoint: string): Promise<boolean>;
}

/** The subscriptions, by endpoint, in a 0600 JSON file of the state directory. */
export async function openSubscriptionFile(path: string): Promise<SubscriptionFile> {
  const byEndpoint = new Map<string, PushSubscriptionRecord>();
  try {
    const stored = JSON.parse(await readFile(path, 'utf8')) as PushSubscriptionRecord[];
    for (const record of stored) byEndpoint.set(record.endpoint, record);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let writing = Promise.resolve();
  const save = () => {
    const text = `${JSON.stringify([...byEndpoint.values()], null, 2)}\n`;
    writing = writing.then(() => writeFileAtomic(path, text, 0o600));
    return writing;
  };
  return {
    list: () => [...byEndpoint.values()],
    async put(record: PushSubscriptionRecord): Promise<boolean> {
      const existed = byEndpoint.has(record.endpoint);
      byEndpoint.set(record.endpoint, record);
      await save();
      return !existed;
    },
    async remove(endpoint: string): Promise<boolean> {
      const removed = byEndpoint.delete(endpoint);
      if (removed) await save();
      return removed;
    },
  };
}
