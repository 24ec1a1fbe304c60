import type { Agent as HttpsAgent } from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema, type HearthConfig } from '../../config/schema.ts';
import { statePaths } from '../../config/state-dir.ts';
import { openDatabase } from '../../db/open-database.ts';
import type { OpenDatabase } from '../../db/ports.ts';
import type { ProviderName } from '../../providers/catalog.ts';
import type { Embedder } from '../../memory/ports.ts';
import { createGateway, type Gateway } from '../../gateway.ts';
import type { ChannelsOptions } from '../../channels/area.ts';
import type { HubOptions } from '../../hub/area.ts';
import type { McpOptions } from '../../mcp/area.ts';
import type { LogTail } from '../../observability/log-tail.ts';
import { silentLogger, type Logger } from '../../observability/logger.ts';
import type { LeaseTiming, PresenceTiming } from '../../scale-out/ports.ts';
import type { FrameSenderLimits } from '../../ws/send.ts';
import type { VoiceEngineOverrides } from '../../voice/voice-runtime.ts';

type SectionPatch = { [S in keyof HearthConfig]?: Partial<HearthConfig[S]> };

export interface TestGateway {
  gateway: Gateway;
  url: string;
  port: number;
  home: string;
  close(): Promise<void>;
}

/** A config with test defaults (random port) and the given section overrides. */
export function testConfig(patch: SectionPatch = {}): HearthConfig {
  const base = configSchema.parse({});
  base.gateway.port = 0;
  for (const [section, values] of Object.entries(patch)) {
    Object.assign(base[section as keyof HearthConfig], values);
  }
  return base;
}

/**
 * A real gateway on a temporary state directory and a random loopback port, with the real
 * SQLite store unless another `openDatabase` is given. Does not wait for readiness.
 */
export async function startTestGateway(
  options: {
    config?: SectionPatch;
    openDatabase?: OpenDatabase;
    /** An existing state directory (to restart on the same one); a fresh one otherwise. */
    home?: string;
    providerEndpoints?: Partial<Record<ProviderName, string>>;
    env?: Record<string, string>;
    embedder?: Embedder;
    processEnv?: Record<string, string>;
    approvalExpiryMs?: number;
    presenceTiming?: PresenceTiming;
    leaseTiming?: LeaseTiming;
    maxLiveSessions?: number;
    socketFrameLimits?: Partial<FrameSenderLimits>;
    /** Outbound HTTP for providers; the global fetch by default. */
    fetch?: typeof globalThis.fetch;
    /** Hub downloads: a pinned fetch trusting a test certificate, a resolver of test names. */
    hubNetwork?: HubOptions;
    /** The channels' DNS TXT lookups (an email channel's DKIM keys): a resolver of test records. */
    resolveTxt?: ChannelsOptions['resolveTxt'];
    mcpServerCommand?: McpOptions['serverCommand'];
    mcpTiming?: McpOptions['timing'];
    /** Voice engines instead of the configured ones (an STT double, a file as microphone). */
    voiceEngines?: VoiceEngineOverrides;
    /** The built web client to serve at `/`. */
    webAssetsDir?: string;
    /** An https agent for web push services. */
    pushAgent?: HttpsAgent;
    /** A logger (silent by default) and its tail for the log routes (none by default). */
    logger?: Logger;
    logTail?: LogTail;
  } = {},
): Promise<TestGateway> {
  const home = options.home ?? (await mkdtemp(join(tmpdir(), 'hearth-test-')));
  const gateway = createGateway(testConfig(options.config), {
    logger: options.logger ?? silentLogger(),
    paths: statePaths(home),
    openDatabase: options.openDatabase ?? openDatabase,
    secrets: {
      env: options.env ?? {},
      readOnePassword: () => Promise.reject(new Error('no op in tests')),
    },
    processEnv: options.processEnv ?? { PATH: '/usr/local/bin:/usr/bin:/bin' },
    socketFrameLimits: options.socketFrameLimits,
    fetch: options.fetch,
    areas: {
      providers: { endpoints: options.providerEndpoints },
      memory: { embedder: options.embedder },
      approvals: { expiryMs: options.approvalExpiryMs },
      scaleOut: { presenceTiming: options.presenceTiming, leaseTiming: options.leaseTiming },
      sessions: { maxLiveSessions: options.maxLiveSessions },
      hub: options.hubNetwork,
      channels: { resolveTxt: options.resolveTxt },
      mcp: { serverCommand: options.mcpServerCommand, timing: options.mcpTiming },
      voice: { engines: options.voiceEngines },
      webClient: { assetsDir: options.webAssetsDir },
      push: { agent: options.pushAgent },
      logs: { tail: options.logTail },
    },
  });
  const address = await gateway.listen();
  return {
    gateway,
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    home,
    async close() {
      await gateway.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
