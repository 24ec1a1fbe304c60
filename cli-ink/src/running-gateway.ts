import { readRuntimeFile, runtimeFilePath } from '@hearth/gateway/runtime-file';
import { statePaths } from '@hearth/gateway/state-dir';
import { rm } from 'node:fs/promises';
import { readPidFile } from './pid-file.ts';
import { isProcessAlive } from './process-alive.ts';

/** A gateway this state directory says is running, and how the CLI learnt of it. */
export interface RunningGatewayRecord {
  pid: number;
  url?: string;
  configPath?: string;
  /** `pid-file`: started with `start --background`; `runtime-file`: any other start. */
  source: 'pid-file' | 'runtime-file';
}

/**
 * The live gateway of state directory `home`: the background gateway's pid file first, then
 * the runtime file every gateway writes once it listens (`npm start`, `hearth start` in the
 * foreground, on any port). A record whose process is gone is stale: undefined (a stale
 * runtime file is removed).
 */
export async function findRunningGateway(home: string): Promise<RunningGatewayRecord | undefined> {
  const record = await readPidFile(statePaths(home).pidFile);
  if (record !== undefined && isProcessAlive(record.pid)) {
    return { ...record, source: 'pid-file' };
  }
  const runtime = await readRuntimeFile(home);
  if (runtime === undefined) return undefined;
  if (!isProcessAlive(runtime.pid)) {
    await rm(runtimeFilePath(home), { force: true });
    return undefined;
  }
  return {
    pid: runtime.pid,
    url: runtime.url,
    configPath: runtime.config_path || undefined,
    source: 'runtime-file',
  };
}
