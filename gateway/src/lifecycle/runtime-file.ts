/**
 * `{state dir}/gateway.runtime.json`: where a running gateway listens, however it was started
 * (`npm start`, `hearth start` in the foreground or in the background, another port). The CLI
 * reads it when no URL is given, so `hearth status|chat|stop` find that gateway. Written once
 * the port is bound, removed on a clean exit; a file whose process is gone is stale. Only
 * node: modules here — the light CLI commands read it.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface RuntimeRecord {
  pid: number;
  port: number;
  /** The address the gateway is bound to (`--bind`, `[gateway] host`). */
  host: string;
  /** The URL a client on this machine reaches it at. */
  url: string;
  /** ISO 8601. */
  started_at: string;
  /** The config file it was started with (its api_key guards /api). */
  config_path: string;
}

/** The runtime file of a state directory. */
export function runtimeFilePath(home: string): string {
  return join(home, 'gateway.runtime.json');
}

/**
 * Writes it (0600, atomically) synchronously: run.ts writes it in the moment between binding
 * the port and answering the first request, so a client that sees `/health` answer finds it.
 */
export function writeRuntimeFileSync(home: string, record: RuntimeRecord): void {
  const path = runtimeFilePath(home);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600, flush: true });
    renameSync(temp, path);
    chmodSync(path, 0o600);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Writes the record of this process listening at `bound` (see writeRuntimeFileSync): run.ts
 * when it binds, main.ts when its early listener binds.
 */
export function recordListeningGateway(
  home: string,
  bound: { host: string; port: number },
  configPath: string,
): void {
  writeRuntimeFileSync(home, {
    pid: process.pid,
    port: bound.port,
    host: bound.host,
    url: localUrl(bound.host, bound.port),
    started_at: new Date().toISOString(),
    config_path: configPath,
  });
}

/** The URL a client on this machine uses: a wildcard bind is reached at the loopback address. */
export function localUrl(host: string, port: number): string {
  if (host === '0.0.0.0') return `http://127.0.0.1:${port}`;
  if (host === '::' || host === '::0') return `http://[::1]:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Removes the file if it still names this gateway (a newer gateway's file is left alone). */
export async function removeRuntimeFile(
  home: string,
  owner: { pid: number; port: number },
): Promise<void> {
  const record = await readRuntimeFile(home);
  if (record === undefined || (record.pid === owner.pid && record.port === owner.port)) {
    await rm(runtimeFilePath(home), { force: true });
  }
}

const isPort = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 65_535;

/** The record, or undefined when there is none or it cannot be understood (never throws on content). */
export async function readRuntimeFile(home: string): Promise<RuntimeRecord | undefined> {
  let text: string;
  try {
    text = await readFile(runtimeFilePath(home), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (text.length > 16_384) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  const r = data as Record<string, unknown>;
  if (typeof r.pid !== 'number' || !Number.isInteger(r.pid) || r.pid <= 0) return undefined;
  if (!isPort(r.port) || typeof r.host !== 'string' || typeof r.url !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(r.url);
  } catch {
    return undefined;
  }
  // Only a plain local http(s) URL: the CLI sends the API key there.
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search)
    return undefined;
  return {
    pid: r.pid,
    port: r.port,
    host: r.host,
    url: url.origin,
    started_at: typeof r.started_at === 'string' ? r.started_at : '',
    config_path: typeof r.config_path === 'string' ? r.config_path : '',
  };
}
