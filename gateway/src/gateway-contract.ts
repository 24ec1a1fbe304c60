import type { Agent as HttpsAgent } from 'node:https';
import type { Backoff } from './channels/channel-runner.ts';
import type { TxtResolver } from './channels/ports.ts';
import type { LeaseTiming } from './scale-out/connection-lease.ts';
import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { ChatPipeline } from './agent/pipeline.ts';
import type { RuntimeReport } from './config/runtime-tuning.ts';
import type { SecretResolverDeps } from './config/secrets.ts';
import type { StatePaths } from './config/state-dir.ts';
import type { OpenDatabase } from './db/ports.ts';
import type { ListeningAddress } from './lifecycle/serve-areas.ts';
import type { Startup } from './lifecycle/startup.ts';
import type { MemoryRuntime } from './memory/build-memory.ts';
import type { HostResolver } from './hub/host-resolver.ts';
import type { PinnedFetch } from './hub/pinned-fetch.ts';
import type { Embedder } from './memory/ports.ts';
import type { ConnectionTiming } from './mcp/client/timing.ts';
import type { McpServerCommand } from './mcp/ports.ts';
import type { LogTail } from './observability/log-tail.ts';
import type { Metrics } from './observability/metrics.ts';
import type { ProviderName } from './providers/catalog.ts';
import type { LlmRouter } from './providers/router.ts';
import type { PresenceTiming } from './scale-out/presence.ts';
import type { SettingsService } from './settings/settings-service.ts';
import type { ToolRuntime } from './tools/build-tools.ts';
import type { ToolRegistry } from './tools/contract.ts';
import type { UsageTracker } from './usage/usage-tracker.ts';
import type { FrameSenderLimits } from './ws/send.ts';
import type { SocketRouter } from './ws/socket-router.ts';
import type { VoiceEngineOverrides } from './voice/voice-runtime.ts';
import type { VoiceService } from './voice/voice-service.ts';

/** Everything the gateway takes from outside; tests pass fakes, main.ts passes the real ones. */
export interface GatewayDeps {
  logger: Logger;
  paths: StatePaths;
  openDatabase: OpenDatabase;
  /**
   * The resolver config.toml's ENV:/op:// references were read with. Nothing resolves a
   * reference sent over the API: settings take literal secrets only (settings/routes.ts).
   */
  secrets: SecretResolverDeps;
  /** Outbound HTTP for providers (global fetch by default). */
  fetch?: typeof globalThis.fetch;
  /**
   * Hub downloads: the pinned fetch (undici by default; tests trust their own certificate) and
   * the resolver of the address check (the system's by default; tests map names to addresses).
   */
  hubNetwork?: { fetch?: PinnedFetch; resolve?: HostResolver };
  /** Base-URL overrides per provider (tests point them at fake servers; proxies). */
  providerEndpoints?: Partial<Record<ProviderName, string>>;
  /** Monotonic milliseconds, for uptime. */
  monotonicNow?: () => number;
  /** Wall clock, epoch milliseconds. */
  now?: () => number;
  /** Replaces the local embedding model (tests use a deterministic one). */
  embedder?: Embedder;
  /** The process environment; child processes get a sanitised copy (default: empty). */
  processEnv?: Readonly<Record<string, string | undefined>>;
  /** How long an approval stays pending (the spec's 120 s unless a test says otherwise). */
  approvalExpiryMs?: number;
  /** How soon a failed channel connection is retried (doubling up to `maxMs`). */
  channelBackoff?: Backoff;
  /**
   * DNS TXT lookups of the channels: the DKIM keys that verify an email's sender (the system's
   * resolver by default; tests serve their own keys).
   */
  resolveTxt?: TxtResolver;
  /** How long a channel's connection lease outlives a gateway that died holding it. */
  leaseTiming?: LeaseTiming;
  /** Scale-out liveness: how long this gateway's presence key lives, how often it is refreshed. */
  presenceTiming?: PresenceTiming;
  /** Live sessions kept in process memory (default 10,000; tests lower it). */
  maxLiveSessions?: number;
  /** Chat sockets' back-pressure limits (`ws/send.ts` defaults; tests lower them). */
  socketFrameLimits?: Partial<FrameSenderLimits>;
  /** Voice engines used instead of the configured ones (tests inject an STT double). */
  voiceEngines?: VoiceEngineOverrides;
  /** An https agent for web push services (tests trust their fake's certificate with it). */
  pushAgent?: HttpsAgent;
  /** The built web client served at `/` (default: the `web` workspace's `dist/`). */
  webAssetsDir?: string;
  /** The process's allocator and heap set-up, reported in /status `backends`. */
  runtime?: RuntimeReport;
  /** How `POST /mcp/spawn` starts `hearth mcp` (the CLI passes itself); unset: spawn answers 503. */
  mcpServerCommand?: McpServerCommand;
  /** External MCP servers' timeouts, backoff and flood limits (tests shorten them). */
  mcpTiming?: Partial<ConnectionTiming>;
  /** The logger's in-memory tail, served by `/api/v1/logs` and `/ws/logs` (none: unavailable). */
  logTail?: LogTail;
}

export interface Gateway {
  readonly app: Express;
  readonly server: Server;
  readonly sockets: SocketRouter;
  /** The OpenAPI document served at /openapi.json (what `@hearth/client` is generated from). */
  readonly openApi: Record<string, unknown>;
  readonly metrics: Metrics;
  readonly startup: Startup;
  readonly router: LlmRouter;
  readonly usage: UsageTracker;
  readonly settings: SettingsService;
  readonly tools: ToolRegistry;
  /** The approval gate, executor and browser, once start-up has built them. */
  toolRuntime(): ToolRuntime;
  /** The chat pipeline, once start-up has built it. */
  pipeline(): ChatPipeline;
  /** The memory tiers, once start-up has built them. */
  memory(): MemoryRuntime;
  /** Voice: host push-to-talk and continuous listening (`hearth start --voice-mode`). */
  readonly voice: VoiceService;
  /** Binds the configured host/port, then runs the start-up phases in the background. */
  listen(): Promise<ListeningAddress>;
  /** Settles when start-up has finished (or failed). */
  whenReady(): Promise<void>;
  /** Stops accepting, drains in-flight requests (up to the shutdown timeout), closes stores. */
  close(): Promise<void>;
}
