import { readEarlySettings } from '../config/early-settings.ts';
import { assertSafeBinding } from '../http/binding.ts';
import { VERSION } from '../version.ts';
import { bindEarlyListener, type EarlyListener } from './early-listener.ts';
import { recordListeningGateway, removeRuntimeFile } from './runtime-file.ts';

/** The port bound before the gateway loaded, handed to runGateway (RunOptions.listenOn). */
export interface EarlyStart {
  listener: EarlyListener;
  /** Why the runtime file could not be written when it bound (run.ts logs it), if it could not. */
  runtimeFileError?: unknown;
}

export interface EarlyStartOptions {
  home: string;
  configPath: string;
  /** `--bind` / `--port`. */
  host?: string;
  port?: number;
  env: Readonly<Record<string, string | undefined>>;
  /** The agent name /health reports. */
  agent: string;
}

/**
 * Binds the gateway's port before the gateway loads and records it in the runtime file before
 * the first request can be answered. Undefined when the config file cannot be read cheaply,
 * names a binding the gateway refuses, or the bind fails (EADDRINUSE…): the gateway then binds itself once loaded, and reports any
 * problem exactly as it always has.
 */
export async function startEarly(options: EarlyStartOptions): Promise<EarlyStart | undefined> {
  const settings = await readEarlySettings(options);
  if (settings === undefined) return undefined;
  try {
    assertSafeBinding({
      host: settings.host,
      api_key: settings.apiKey,
      allow_unauthenticated: settings.allowUnauthenticated,
    });
  } catch {
    return undefined;
  }
  let runtimeFileError: unknown;
  try {
    const listener = await bindEarlyListener(
      settings,
      { version: VERSION, agent: options.agent },
      (bound) => {
        try {
          recordListeningGateway(options.home, bound, options.configPath);
        } catch (error) {
          runtimeFileError = error ?? new Error('unknown error');
        }
      },
    );
    return { listener, runtimeFileError };
  } catch {
    return undefined;
  }
}

/** Undoes an early start whose gateway never took over: stops listening, removes its runtime file. */
export async function abandonEarlyStart(early: EarlyStart, home: string): Promise<void> {
  early.listener.close();
  await removeRuntimeFile(home, { pid: process.pid, port: early.listener.address.port }).catch(
    () => undefined,
  );
}
