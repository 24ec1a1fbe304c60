import type { ProviderStatus } from '@hearth/gateway';

export interface LiveCheckResult {
  /** True: reachable; false: the check failed; null: this provider has no stable check. */
  reachable: boolean | null;
  detail: string;
}

/**
 * Probes one provider with the models config as it will be written (references resolved):
 * the gateway's own status probe (`GET /models` on OpenAI-compatible APIs, the local runtime's
 * tag list); providers without a stable check say so.
 */
export async function liveCheck(
  provider: string,
  models: Record<string, string>,
  deps: {
    fetch: typeof fetch;
    statuses: (
      models: Record<string, string>,
      fetch: typeof globalThis.fetch,
    ) => Promise<ProviderStatus[]>;
  },
): Promise<LiveCheckResult> {
  const status = (await deps.statuses(models, deps.fetch)).find((s) => s.provider === provider);
  if (!status) return { reachable: false, detail: 'unknown provider' };
  if (!status.live_checked) return { reachable: null, detail: status.detail };
  return { reachable: status.reachable === true, detail: status.detail };
}
