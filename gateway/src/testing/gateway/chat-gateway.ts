import type { Agent as HttpsAgent } from 'node:https';
import { createHashEmbedder } from '../../memory/embedder/hash-embedder.ts';
import type { PresenceTiming } from '../../scale-out/presence.ts';
import type { FrameSenderLimits } from '../../ws/send.ts';
import type { VoiceEngineOverrides } from '../../voice/voice-runtime.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../fakes/fake-llm/server.ts';
import { startTestGateway, type TestGateway } from './test-gateway.ts';

/** Optional overrides for the test bed's gateway. */
export interface ChatTestBedOptions {
  /** Section overrides merged over the bed's own (its `models` keys win over these). */
  config?: NonNullable<Parameters<typeof startTestGateway>[0]>['config'];
  /** How long an approval stays pending (the spec's 120 s by default). */
  approvalExpiryMs?: number;
  /** Scale-out liveness timing (the gateway's presence key in Redis). */
  presenceTiming?: PresenceTiming;
  /** Live sessions kept in process memory before the least recently active is evicted. */
  maxLiveSessions?: number;
  /** Chat sockets' back-pressure limits. */
  socketFrameLimits?: Partial<FrameSenderLimits>;
  /** The gateway process's environment, of which child processes get a sanitised copy. */
  processEnv?: Record<string, string>;
  /** The state directory (default: a fresh temporary one). */
  home?: string;
  /** How `POST /mcp/spawn` starts `hearth mcp`. */
  mcpServerCommand?: NonNullable<Parameters<typeof startTestGateway>[0]>['mcpServerCommand'];
  /** External MCP servers' timeouts, backoff and flood limits. */
  mcpTiming?: NonNullable<Parameters<typeof startTestGateway>[0]>['mcpTiming'];
  /** Voice engines instead of the configured ones (an STT double, a file as microphone). */
  voiceEngines?: VoiceEngineOverrides;
  /** The built web client to serve at `/`. */
  webAssetsDir?: string;
  /** An https agent for web push services. */
  pushAgent?: HttpsAgent;
  /** A logger and its tail for the log routes (silent and none by default). */
  logger?: NonNullable<Parameters<typeof startTestGateway>[0]>['logger'];
  logTail?: NonNullable<Parameters<typeof startTestGateway>[0]>['logTail'];
  /** The channels' DNS TXT lookups (an email channel's DKIM keys): a resolver of test records. */
  resolveTxt?: NonNullable<Parameters<typeof startTestGateway>[0]>['resolveTxt'];
  /** Hub downloads: a pinned fetch trusting a test certificate. */
  hubNetwork?: NonNullable<Parameters<typeof startTestGateway>[0]>['hubNetwork'];
}

export interface ChatTestBed {
  gw: TestGateway;
  fake: FakeLlmServer;
  /** POST a JSON body to /api/v1{path}; returns status and parsed body. */
  post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  get(path: string): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

/**
 * A real gateway whose models all point at one fake LLM server: primary `gpt-4o` (OpenAI wire),
 * local `ollama/llama3.2`, a deterministic hash embedder for memory.
 */
export async function startChatTestBed(
  models: Record<string, string> = {
    primary: 'gpt-4o',
    fallback: '',
    fast: '',
    local: 'ollama/llama3.2',
  },
  options: ChatTestBedOptions = {},
): Promise<ChatTestBed> {
  const fake = await createFakeLlmServer();
  const gw = await startTestGateway({
    approvalExpiryMs: options.approvalExpiryMs,
    presenceTiming: options.presenceTiming,
    maxLiveSessions: options.maxLiveSessions,
    socketFrameLimits: options.socketFrameLimits,
    processEnv: options.processEnv,
    home: options.home,
    mcpServerCommand: options.mcpServerCommand,
    mcpTiming: options.mcpTiming,
    voiceEngines: options.voiceEngines,
    webAssetsDir: options.webAssetsDir,
    pushAgent: options.pushAgent,
    resolveTxt: options.resolveTxt,
    hubNetwork: options.hubNetwork,
    logger: options.logger,
    logTail: options.logTail,
    config: {
      ...options.config,
      models: {
        ...options.config?.models,
        openai_api_key: 'sk-test',
        anthropic_api_key: 'sk-ant-test',
        ...models,
        ollama_base_url: fake.url,
      },
    },
    providerEndpoints: { openai: `${fake.url}/v1`, anthropic: `${fake.url}/v1`, ollama: fake.url },
    embedder: createHashEmbedder({ dimensions: 64 }),
  });
  await gw.gateway.whenReady();
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${gw.url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return {
    gw,
    fake,
    post: (path, body) => call('POST', path, body),
    get: (path) => call('GET', path),
    async close() {
      await gw.close();
      await fake.close();
    },
  };
}
