import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../config/atomic-write.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The gateway's VAPID key pair: generated once with web-push and kept in the state directory
 * (0600), so subscriptions stay valid across restarts.
 */
export async function loadOrCreateVapidKeys(path: string): Promise<VapidKeys> {
  try {
    const stored = JSON.parse(await readFile(path, 'utf8')) as Partial<VapidKeys>;
    if (typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string') {
      return { publicKey: stored.publicKey, privateKey: stored.privateKey };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // web-push (and its JWT and ASN.1 libraries) loads only on the first start, to make the pair.
  const { default: webpush } = await import('web-push');
  const keys = webpush.generateVAPIDKeys();
  await writeFileAtomic(path, `${JSON.stringify(keys)}\n`, 0o600);
  return keys;
}
