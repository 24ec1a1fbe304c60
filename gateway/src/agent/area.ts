import type { Logger } from 'pino';
import type { ApprovalService } from '../approvals/approval-service.ts';
import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import type { MemoryRuntime } from '../memory/ports.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { SessionContext } from '../privacy/ports.ts';
import type { LlmRouter } from '../providers/ports.ts';
import type { SettingsService } from '../settings/ports.ts';
import type { ToolRegistry } from '../tools/contract.ts';
import type { FrameSenderLimits } from '../ws/send.ts';
import { buildAgent } from './build-agent.ts';
import { chatSocketFormA, chatSocketFormB } from './chat-sockets.ts';
import type { ConversationStore } from './conversations.ts';
import type { ChatPipeline, PipelineSettings } from './pipeline.ts';
import { chatRoutes } from './routes.ts';

export interface AgentAreaDeps {
  home: string;
  router: LlmRouter;
  memory: () => MemoryRuntime;
  conversations: ConversationStore;
  tools: ToolRegistry;
  settings: SettingsService;
  sessionContext: () => SessionContext;
  /** The approval gate, once the tools have started (chat replies `approve|deny <id>`). */
  approvals: () => ApprovalService | undefined;
  /** Clears a session on every gateway sharing `[memory] cache_url`. */
  clearSession: (sessionId: string) => Promise<boolean>;
  /** Chat sockets' back-pressure limits (`ws/send.ts` defaults unless a test lowers them). */
  socketFrameLimits?: Partial<FrameSenderLimits>;
  /** `/node <name> <message>`: one reply from an orchestrator node (absent: no orchestrator). */
  delegateToNode?: (node: string, message: string) => Promise<string>;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
}

export interface AgentArea extends Area {
  /** The chat pipeline; 503 "The agent is starting" before the phase has run. */
  readonly pipeline: () => ChatPipeline;
  /** Whether the pipeline is built (`runtime_available`). */
  readonly available: () => boolean;
}

/** The chat pipeline: REST chat and sessions, the `/ws` and `/ws/chat` sockets. */
export function agentArea(deps: AgentAreaDeps): AgentArea {
  const pipeline = late<ChatPipeline>('The agent');
  const pipelineSettings: PipelineSettings = { maxToolSteps: 5 };
  const socketDeps = {
    pipeline: pipeline.get,
    conversations: deps.conversations,
    logger: deps.logger.child({ area: 'chat' }),
    sessionOwners: new WeakMap(),
    metrics: deps.metrics,
    frameLimits: deps.socketFrameLimits,
  };
  return {
    name: 'agent',
    routes: chatRoutes({
      pipeline: pipeline.get,
      tools: deps.tools,
      conversations: deps.conversations,
      clearSession: deps.clearSession,
      pipelineSettings,
    }),
    sockets: [
      { path: '/ws', handler: chatSocketFormA(socketDeps) },
      { path: '/ws/chat', handler: chatSocketFormB(socketDeps) },
    ],
    async start() {
      pipeline.set(
        await buildAgent({
          home: deps.home,
          router: deps.router,
          memory: deps.memory(),
          conversations: deps.conversations,
          tools: deps.tools,
          settings: deps.settings,
          pipelineSettings,
          sessionContext: deps.sessionContext(),
          approvals: deps.approvals,
          delegateToNode: deps.delegateToNode,
          metrics: deps.metrics,
          logger: deps.logger,
          now: deps.now,
        }),
      );
    },
    pipeline: pipeline.get,
    available: () => pipeline.peek() !== undefined,
    close: () => deps.conversations.close(),
  };
}
