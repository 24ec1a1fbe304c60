import { readFile } from 'node:fs/promises';
import { openSubscriptionFile, subscriptionSchema } from '../../push/ports.ts';
import { predecessorPushSubscriptionSchema } from './formats.ts';

export interface PushReport {
  /** Entries in the predecessor's `push_subscriptions.json`. */
  found: number;
  /** Added to Hearth's store (in a dry run: would be added). */
  imported: number;
  /** Already in Hearth's store (same endpoint): left as they are. */
  duplicates: number;
  /** Entries that are not a usable subscription, by the predecessor's id. */
  invalid: { id: string; reason: string }[];
  /** The push services the subscriptions point at (origins only: endpoints are capabilities). */
  services: string[];
  note: string;
}

export const PUSH_IMPORTED_NOTE =
  'imported into Hearth’s push store; a running gateway reads it at start, so restart it.';

const empty = (note: string): PushReport => ({
  found: 0,
  imported: 0,
  duplicates: 0,
  invalid: [],
  services: [],
  note,
});

/**
 * Reads the predecessor's `push_subscriptions.json` (subscription id → subscription) and adds
 * each valid one to Hearth's push store (`{data_dir}/push-subscriptions.json`, by endpoint,
 * 0600, written atomically by the push area's own file). An endpoint already there is a
 * duplicate, so a second run adds nothing; a dry run reads both files and writes nothing.
 */
export async function importPushSubscriptions(
  sourcePath: string,
  storePath: string,
  dryRun: boolean,
): Promise<PushReport> {
  let text: string;
  try {
    text = await readFile(sourcePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty('none found');
    throw error;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return empty(`${sourcePath} is not valid JSON`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return empty(`${sourcePath}: expected an object of subscriptions by id`);

  const entries = Object.entries(raw as Record<string, unknown>);
  const report: PushReport = { ...empty(dryRun ? 'dry run: nothing written' : PUSH_IMPORTED_NOTE) };
  report.found = entries.length;
  const store = await openSubscriptionFile(storePath);
  const known = new Set(store.list().map((record) => record.endpoint));
  const services = new Set<string>();
  for (const [id, value] of entries) {
    const predecessor = predecessorPushSubscriptionSchema.safeParse(value);
    const hearth = predecessor.success
      ? subscriptionSchema.safeParse({
          endpoint: predecessor.data.endpoint,
          expirationTime: null,
          keys: { p256dh: predecessor.data.p256dh, auth: predecessor.data.auth },
        })
      : predecessor;
    if (!hearth.success) {
      const issue = hearth.error.issues[0];
      report.invalid.push({
        id,
        reason: `${issue?.path.join('.') || 'subscription'}: ${issue?.message ?? 'invalid'}`,
      });
      continue;
    }
    services.add(new URL(hearth.data.endpoint).origin);
    if (known.has(hearth.data.endpoint)) {
      report.duplicates += 1;
      continue;
    }
    known.add(hearth.data.endpoint);
    report.imported += 1;
    if (!dryRun) {
      const created = predecessor.success ? predecessor.data.created_at : undefined;
      const createdAt = created && !Number.isNaN(Date.parse(created)) ? created : undefined;
      await store.put({
        ...hearth.data,
        created_at: new Date(createdAt ?? Date.now()).toISOString(),
      });
    }
  }
  report.services = [...services].sort();
  return report;
}
