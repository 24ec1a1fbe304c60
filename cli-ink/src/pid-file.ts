import { readFile, rm } from 'node:fs/promises';
import { writeFileAtomic } from '@hearth/gateway/atomic-write';

/** What `start --background` records in {home}/gateway.pid, so stop/status find the gateway. */
export interface PidRecord {
  pid: number;
  /** The URL the gateway answers at (reflects --bind/--port). */
  url?: string;
  /** The config file the gateway was started with (its api_key guards /api). */
  configPath?: string;
}

/** The record, or undefined when there is no pid file or it cannot be understood. */
export async function readPidFile(path: string): Promise<PidRecord | undefined> {
  let text: string;
  try {
    text = (await readFile(path, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (/^\d+$/.test(text)) return { pid: Number(text) };
  try {
    const data = JSON.parse(text) as unknown;
    if (!data || typeof data !== 'object' || !('pid' in data)) return undefined;
    const { pid } = data;
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
    const record: PidRecord = { pid };
    if ('url' in data && typeof data.url === 'string') record.url = data.url;
    if ('configPath' in data && typeof data.configPath === 'string')
      record.configPath = data.configPath;
    return record;
  } catch {
    return undefined;
  }
}

export async function writePidFile(path: string, record: PidRecord): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(record)}\n`, 0o600);
}

export async function removePidFile(path: string): Promise<void> {
  await rm(path, { force: true });
}
