import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ApprovalService } from '../approvals/ports.ts';
import type { MemoryRuntime } from '../memory/ports.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { SessionContext } from '../privacy/ports.ts';
import type { LlmRouter } from '../providers/ports.ts';
import type { SettingsService } from '../settings/ports.ts';
import type { ConversationStore } from '../sessions/ports.ts';
import { createPersona } from './persona.ts';
import { createChatPipeline, type ChatPipeline, type PipelineSettings } from './pipeline.ts';
import type { ToolSelector } from './tool-selection/tool-selector.ts';
import { isCore, type ToolSelectionSettings } from './tool-selection/turn-offer.ts';
import { currentTimeTool, memorySearchTool } from './tools/builtin.ts';
import { findToolTool } from './tools/find-tool.ts';
import type { ToolRegistry } from '../tools/ports.ts';

export interface BuildAgentDeps {
  home: string;
  router: LlmRouter;
  memory: MemoryRuntime;
  conversations: ConversationStore;
  tools: ToolRegistry;
  settings: SettingsService;
  pipelineSettings: PipelineSettings;
  /** `[tools] selection` and `max_offered`. */
  toolSelection: ToolSelectionSettings;
  /** The selector the agent area reports the ranking of (`/status`). */
  toolSelector: ToolSelector;
  sessionContext: SessionContext;
  approvals?: () => ApprovalService | undefined;
  /** `/node <name> <message>`: one reply from an orchestrator node (absent: no orchestrator). */
  delegateToNode?: (node: string, message: string) => Promise<string>;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
}

/** The agent runtime: persona files, built-in tools, and the chat pipeline over them. */

export async function buildAgent(deps: BuildAgentDeps): Promise<ChatPipeline> {
  const persona = createPersona({
    dir: join(deps.home, 'persona'),
    legacyDir: join(deps.home, 'workspace'),
    logger: deps.logger.child({ area: 'persona' }),
    now: deps.now,
  });
  await persona.ensureFiles();
  // Reserved by the agent area's installer: nothing else can hold these names.
  deps.tools.register(currentTimeTool(() => new Date(deps.now())));
  deps.tools.register(memorySearchTool(deps.memory.service));
  deps.tools.register(
    findToolTool((query, limit) =>
      deps.toolSelector.select({
        tools: deps.tools.list().filter((tool) => !isCore(tool)),
        message: query,
        recent: [],
        maxOffered: limit,
      }),
    ),
  );
  return createChatPipeline({
    router: deps.router,
    memory: deps.memory.service,
    compactor: deps.memory.compactor,
    history: deps.memory.history,
    conversations: deps.conversations,
    tools: deps.tools,
    toolSelector: deps.toolSelector,
    toolSelection: deps.toolSelection,
    persona,
    settings: deps.settings,
    pipeline: deps.pipelineSettings,
    sessionContext: deps.sessionContext,
    approvals: deps.approvals,
    delegateToNode: deps.delegateToNode,
    metrics: deps.metrics,
    logger: deps.logger.child({ area: 'agent' }),
    now: deps.now,
  });
}
