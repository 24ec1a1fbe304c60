/**
 * `[models] pull_local_model`: on the first start of a stack whose local runtime (Ollama) lacks
 * `[models] local`, the gateway pulls it before it reports ready, so the first chat works with
 * no manual step. It waits for the runtime to answer (it may start after the gateway), logs the
 * progress and shows it in `/api/v1/status` `backends.local_model`; when the runtime never
 * answers or the pull fails it says so there and start-up goes on (chat then names the problem).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Area } from '../lifecycle/area.ts';
import { defineArea } from '../lifecycle/install.ts';
import { listOllamaModels, pullOllamaModel, sameModel, type PullProgress } from './ollama-pull.ts';

export interface LocalModelAreaDeps {
  enabled: boolean;
  /** `[models] local`, e.g. `ollama/llama3.2`; only `ollama/` models can be pulled. */
  model: string;
  /** `[models] ollama_base_url`. */
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  logger: Logger;
  /** How long to wait for the runtime to answer at all (default 2 minutes). */
  reachTimeoutMs?: number;
  /** Between two attempts to reach it (default 2 s). */
  retryMs?: number;
  now?: () => number;
}

const OLLAMA_PREFIX = 'ollama/';

function percent(progress: PullProgress): number | undefined {
  if (progress.total === undefined || progress.total <= 0 || progress.completed === undefined) {
    return undefined;
  }
  return Math.min(100, Math.floor((progress.completed / progress.total) * 100));
}

export function localModelArea(deps: LocalModelAreaDeps): Area {
  const logger = deps.logger.child({ area: 'local-model' });
  const now = deps.now ?? Date.now;
  const aborts = new AbortController();
  let state: string | undefined;

  async function reachable(): Promise<boolean> {
    const deadline = now() + (deps.reachTimeoutMs ?? 120_000);
    for (;;) {
      try {
        await listOllamaModels({ baseUrl: deps.baseUrl, fetch: deps.fetch, signal: aborts.signal });
        return true;
      } catch {
        if (aborts.signal.aborted || now() >= deadline) return false;
        await delay(deps.retryMs ?? 2_000, undefined, { signal: aborts.signal }).catch(() => {});
      }
    }
  }

  async function ensure(name: string): Promise<void> {
    state = `waiting for the local runtime at ${deps.baseUrl}`;
    if (!(await reachable())) {
      state = `${name}: local runtime unreachable at ${deps.baseUrl}, not pulled`;
      logger.warn(
        { model: name, url: deps.baseUrl },
        'local runtime unreachable; model not pulled',
      );
      return;
    }
    const call = { baseUrl: deps.baseUrl, fetch: deps.fetch, signal: aborts.signal };
    if ((await listOllamaModels(call)).some((listed) => sameModel(listed, name))) {
      state = `${name}: present`;
      return;
    }
    logger.info({ model: name }, 'pulling the local model (first start)');
    let logged = -10;
    await pullOllamaModel({
      ...call,
      model: name,
      onProgress: (progress) => {
        const share = percent(progress);
        state = `${name}: pulling${share === undefined ? ` (${progress.status})` : ` ${share}%`}`;
        if (share !== undefined && share >= logged + 10) {
          logged = share - (share % 10);
          logger.info({ model: name, percent: share }, `pulling ${name}: ${share}%`);
        }
      },
    });
    state = `${name}: pulled`;
    logger.info({ model: name }, 'local model pulled');
  }

  return {
    name: 'local-model',
    start: async () => {
      if (!deps.enabled) return;
      if (!deps.model.startsWith(OLLAMA_PREFIX)) {
        state = `not pulled: ${deps.model} is not an ollama/ model`;
        return;
      }
      const name = deps.model.slice(OLLAMA_PREFIX.length);
      try {
        await ensure(name);
      } catch (error) {
        if (aborts.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        state = `${name}: pull failed: ${message}`;
        logger.error({ model: name, err: error }, 'pulling the local model failed');
      }
    },
    status: (): Record<string, string> => (state === undefined ? {} : { local_model: state }),
    close: () => aborts.abort(),
  };
}

export const localModel = defineArea(
  'localModel',
  (kernel, needs: { providers: { endpoints: { ollama?: string } | undefined } }) =>
    localModelArea({
      enabled: kernel.config.models.pull_local_model,
      model: kernel.config.models.local,
      baseUrl: needs.providers.endpoints?.ollama ?? kernel.config.models.ollama_base_url,
      fetch: kernel.fetch,
      logger: kernel.logger,
    }),
);
