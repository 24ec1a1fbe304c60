import { readFile } from 'node:fs/promises';
import { pushSubscriptionsSchema } from './formats.ts';

export interface PushReport {
  found: number;
  imported: 0;
  /** The push services the subscriptions point at (origins only: endpoints are capabilities). */
  services: string[];
  note: string;
}

export const NO_PUSH_STORE =
  'Hearth has no push subscription store yet: the subscriptions are reported, not copied; ' +
  'browsers subscribe again once Hearth’s web client enables push.';

/** Reads `push_subscriptions.json`; Hearth has no push store to put them in yet. */
export async function reportPushSubscriptions(path: string): Promise<PushReport> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { found: 0, imported: 0, services: [], note: 'none found' };
    throw error;
  }
  let parsed: ReturnType<typeof pushSubscriptionsSchema.safeParse>;
  try {
    parsed = pushSubscriptionsSchema.safeParse(JSON.parse(text));
  } catch {
    return { found: 0, imported: 0, services: [], note: `${path} is not valid JSON` };
  }
  if (!parsed.success)
    return {
      found: 0,
      imported: 0,
      services: [],
      note: `${path}: ${parsed.error.issues[0]?.message}`,
    };
  const subscriptions = Object.values(parsed.data);
  const services = [...new Set(subscriptions.map((s) => new URL(s.endpoint).origin))].sort();
  return { found: subscriptions.length, imported: 0, services, note: NO_PUSH_STORE };
}
