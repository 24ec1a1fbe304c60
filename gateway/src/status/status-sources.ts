/**
 * What /status and /ready ask of the rest of the gateway. Each area contributes through this
 * narrow interface instead of the status routes reaching into areas.
 */
export interface StatusSources {
  /** Can a model answer the next message, and if not, the next step (no paid call). */
  modelReady(): Promise<{ ok: boolean; detail: string; fix: string }>;
  activeSessions(): number;
  /** The agent runtime (router, tools, pipeline) is constructed. */
  runtimeAvailable(): boolean;
  voice(): { stt_available: boolean; tts_available: boolean; wake_word_active: boolean };
  /** Null until the embedding model's load state is known; reading never triggers a load. */
  semanticAvailable(): boolean | null;
  /** Finishes what areas left for first use and status reports on (Area.settle); optional. */
  settle?(): Promise<void>;
  /** Which adapter each part uses, e.g. { database: 'sqlite' }, so fallbacks are visible. */
  backends(): Record<string, string>;
  /** Null when no channel is configured; else whether at least one adapter is connected. */
  channelConnected(): boolean | null;
}
