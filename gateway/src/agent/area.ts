import type { Logger } from 'pino';
import type { ApprovalService } from '../approvals/ports.ts';
import { late } from '../lifecycle/late.ts';
import type { MemoryRuntime } from '../memory/ports.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { SessionContext } from '../privacy/ports.ts';
import type { LlmRouter } from '../providers/ports.ts';
import type { SettingsService } from '../settings/ports.ts';
import type { ToolRegistry } from '../tools/ports.ts';
import type { FrameSenderLimits } from '../ws/send.ts';
import { buildAgent } from './build-agent.ts';
import { createToolSelector } from './tool-selection/tool-selector.ts';
import type { ToolSelectionSettings } from './tool-selection/turn-offer.ts';
import { AGENT_TOOLS } from './tools/builtin.ts';
import { chatSocketFormA, chatSocketFormB, type ChatSocketDeps } from './chat-sockets.ts';
import type { ConversationStore } from '../sessions/ports.ts';
import type { ChatPipeline, PipelineSettings } from './pipeline.ts';
import { chatRoutes } from './routes.ts';
import { sessionRoutes } from './session-routes.ts';
import type { AgentArea } from './ports.ts';

export type { AgentArea };
import type { ApprovalsArea } from '../approvals/ports.ts';
import { unavailable } from '../errors.ts';
import { defineArea } from '../lifecycle/install.ts';
import type { ScaleOut } from '../scale-out/ports.ts';
import type { SessionsArea } from '../sessions/ports.ts';
import { approvalRequestFrame } from './approval-frame.ts';
import { compactRoute } from './compact-route.ts';

export interface AgentAreaDeps {
  home: string;
  router: LlmRouter;
  memory: () => MemoryRuntime;
  conversations: ConversationStore;
  tools: ToolRegistry;
  /** `[tools] selection` and `max_offered`. */
  toolSelection: ToolSelectionSettings;
  settings: SettingsService;
  sessionContext: () => SessionContext;
  /** The approval gate, once it has started (chat replies `approve|deny <id>`). */
  approvals: () => ApprovalService | undefined;
  /**
   * Clears a session: its stored history, and the live session on every gateway sharing
   * `[memory] cache_url`; whether there was anything to clear.
   */
  clearSession: (sessionId: string) => Promise<boolean>;
  /** Chat sockets' back-pressure limits (`ws/send.ts` defaults unless a test lowers them). */
  socketFrameLimits?: Partial<FrameSenderLimits>;
  /** `/node <name> <message>`: one reply from an orchestrator node (absent: no orchestrator). */
  delegateToNode?: (node: string, message: string) => Promise<string>;
  /** Approvals decided in this process, for `/ws?events=tools` (`approval_resolved`). */
  approvalDecided?: ChatSocketDeps['approvalDecided'];
  metrics: Metrics;
  logger: Logger;
  now: () => number;
}

/** The chat pipeline: REST chat and sessions, the `/ws` and `/ws/chat` sockets. */
export function agentArea(deps: AgentAreaDeps): AgentArea {
  const pipeline = late<ChatPipeline>('The agent');
  // Registered at start-up, after the skills and plugins on disk: reserved now.
  for (const name of AGENT_TOOLS) deps.tools.reserve(name, 'builtin');
  const pipelineSettings: PipelineSettings = { maxToolSteps: 5 };
  // Built with the pipeline: the memory area's embedder exists from then on.
  const toolSelector = late<ReturnType<typeof createToolSelector>>('The agent');
  const socketDeps = {
    pipeline: pipeline.get,
    conversations: deps.conversations,
    logger: deps.logger.child({ area: 'chat' }),
    metrics: deps.metrics,
    frameLimits: deps.socketFrameLimits,
    approvalDecided: deps.approvalDecided,
  };
  return {
    name: 'agent',
    routes: [
      ...chatRoutes({
        pipeline: pipeline.get,
        tools: deps.tools,
        conversations: deps.conversations,
        clearSession: deps.clearSession,
        pipelineSettings,
      }),
      ...sessionRoutes({
        conversations: deps.conversations,
        history: () => deps.memory().history,
      }),
      compactRoute(pipeline.get),
    ],
    sockets: [
      { path: '/ws', handler: chatSocketFormA(socketDeps) },
      { path: '/ws/chat', handler: chatSocketFormB(socketDeps) },
    ],
    async start() {
      const memory = deps.memory();
      toolSelector.set(createToolSelector({ embedder: memory.embedder }));
      pipeline.set(
        await buildAgent({
          home: deps.home,
          router: deps.router,
          memory,
          conversations: deps.conversations,
          tools: deps.tools,
          toolSelection: deps.toolSelection,
          toolSelector: toolSelector.get(),
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
    // `/status` backends: which tools a turn offers, and how relevance is ranked.
    status: () => ({
      tool_selection:
        deps.toolSelection.mode === 'all'
          ? 'all'
          : `relevant (${toolSelector.peek()?.ranking() ?? 'keywords'}, max ${deps.toolSelection.maxOffered})`,
    }),
  };
}

export interface AgentNeeds {
  providers: { router: LlmRouter };
  memory: { memory: () => MemoryRuntime };
  sessions: Pick<SessionsArea, 'conversations'>;
  tools: { registry: ToolRegistry };
  settings: { service: SettingsService };
  privacy: { sessionContext: () => SessionContext };
  approvals: Pick<ApprovalsArea, 'peek' | 'notices'>;
  scaleOut: { peek: () => ScaleOut | undefined; scaleOut: () => ScaleOut };
  orchestrator: { service: { delegate: (node: string, message: string) => Promise<string> } };
}

export const agent = defineArea('agent', (kernel, needs: AgentNeeds) => {
  const { conversations } = needs.sessions;
  // An approval notice reaches the session's sockets on whichever gateway they are connected.
  needs.approvals.notices.subscribe('screen', (notice) =>
    needs.scaleOut.scaleOut().events.send(notice.approval.session_id, approvalRequestFrame(notice)),
  );
  return agentArea({
    home: kernel.paths.home,
    router: needs.providers.router,
    memory: needs.memory.memory,
    conversations,
    tools: needs.tools.registry,
    toolSelection: {
      mode: kernel.config.tools.selection,
      maxOffered: kernel.config.tools.max_offered,
    },
    settings: needs.settings.service,
    sessionContext: needs.privacy.sessionContext,
    approvals: needs.approvals.peek,
    clearSession: async (sessionId) => {
      // The stored history first: a session cleared here but not there would come back whole
      // (and as untrusted as it was) on its next turn.
      let stored: number;
      try {
        stored = await needs.memory.memory().history.clear(sessionId);
      } catch (error) {
        throw unavailable(
          `Session ${sessionId} was not cleared: its stored history could not be deleted ` +
            `(${error instanceof Error ? error.message : String(error)})`,
          error,
        );
      }
      // Before scale-out has started there are no peers to tell yet.
      const live = await (needs.scaleOut.peek()?.events.clear(sessionId) ??
        Promise.resolve(conversations.delete(sessionId)));
      return live || stored > 0;
    },
    socketFrameLimits: kernel.frameLimits,
    delegateToNode: (node, message) => needs.orchestrator.service.delegate(node, message),
    approvalDecided: (listener) => needs.approvals.notices.subscribeDecided(listener),
    metrics: kernel.metrics,
    logger: kernel.logger,
    now: kernel.now,
  });
});
