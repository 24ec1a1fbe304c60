import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { AgentArea } from './agent/area.ts';
import type { ApprovalsOptions, ApprovalService } from './approvals/ports.ts';
import type { ChannelsOptions } from './channels/area.ts';
import type { SecretResolverDeps } from './config/secrets.ts';
import type { StatePaths } from './config/state-dir.ts';
import type { OpenDatabase } from './db/ports.ts';
import type { HubOptions } from './hub/area.ts';
import type { EarlyListener } from './lifecycle/early-listener.ts';
import type { ListeningAddress } from './lifecycle/listening-address.ts';
import type { Startup } from './lifecycle/startup.ts';
import type { LogsOptions } from './logs/area.ts';
import type { McpOptions } from './mcp/area.ts';
import type { MemoryArea, MemoryOptions } from './memory/area.ts';
import type { Metrics } from './observability/metrics.ts';
import type { ProvidersArea, ProvidersOptions } from './providers/area.ts';
import type { PushOptions } from './push/area.ts';
import type { ScaleOutOptions } from './scale-out/ports.ts';
import type { SessionsOptions } from './sessions/ports.ts';
import type { SettingsArea } from './settings/area.ts';
import type { StatusOptions } from './status/area.ts';
import type { ToolRuntime, ToolRegistry } from './tools/ports.ts';
import type { VoiceArea, VoiceOptions } from './voice/area.ts';
import type { WebClientOptions } from './web-client/area.ts';
import type { FrameSenderLimits } from './ws/send.ts';
import type { SocketRouter } from './ws/socket-router.ts';

/** Each area's options (test seams, tuning), under the area's name. */
export interface AreaOptions {
  providers?: ProvidersOptions;
  sessions?: SessionsOptions;
  memory?: MemoryOptions;
  scaleOut?: ScaleOutOptions;
  approvals?: ApprovalsOptions;
  hub?: HubOptions;
  mcp?: McpOptions;
  voice?: VoiceOptions;
  push?: PushOptions;
  webClient?: WebClientOptions;
  channels?: ChannelsOptions;
  logs?: LogsOptions;
  status?: StatusOptions;
}

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
  /** Monotonic milliseconds, for uptime. */
  monotonicNow?: () => number;
  /** Wall clock, epoch milliseconds. */
  now?: () => number;
  /** The process environment; child processes get a sanitised copy (default: empty). */
  processEnv?: Readonly<Record<string, string | undefined>>;
  /** Sockets' back-pressure limits (`ws/send.ts` defaults; tests lower them). */
  socketFrameLimits?: Partial<FrameSenderLimits>;
  /** Each area's own options. */
  areas?: AreaOptions;
}

export interface Gateway {
  readonly app: Express;
  readonly server: Server;
  readonly sockets: SocketRouter;
  /** The OpenAPI document served at /openapi.json (what `@hearth/client` is generated from). */
  readonly openApi: Record<string, unknown>;
  readonly metrics: Metrics;
  readonly startup: Startup;
  readonly router: ProvidersArea['router'];
  readonly usage: ProvidersArea['usage'];
  readonly settings: SettingsArea['service'];
  readonly tools: ToolRegistry;
  /** The approval gate and its decisions, once start-up has built it. */
  approvals(): ApprovalService;
  /** The executor and browser, once start-up has built them. */
  toolRuntime(): ToolRuntime;
  /** The chat pipeline, once start-up has built it. */
  pipeline: AgentArea['pipeline'];
  /** The memory tiers, once start-up has built them. */
  memory: MemoryArea['memory'];
  /** Voice: host push-to-talk and continuous listening (`hearth start --voice-mode`). */
  readonly voice: VoiceArea['service'];
  /**
   * Binds the configured host/port, then runs the start-up phases in the background. `onBound`
   * runs synchronously once the port is bound, before any request is answered (what must exist
   * before `/health` answers: the runtime file). With `listenOn` it binds nothing: it takes
   * over that early listener's socket (main.ts bound it before the gateway loaded).
   */
  listen(
    onBound?: (address: ListeningAddress) => void,
    listenOn?: EarlyListener,
  ): Promise<ListeningAddress>;
  /** Settles when start-up has finished (or failed). */
  whenReady(): Promise<void>;
  /** Stops accepting, drains in-flight requests (up to the shutdown timeout), closes stores. */
  close(): Promise<void>;
}
