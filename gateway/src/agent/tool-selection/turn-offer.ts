/**
 * The tools one turn offers the model, step by step: Hearth's own built-ins (the core) always;
 * of the rest, with `[tools] selection = "relevant"`, those relevant to the message and the
 * recent turns (at most `max_offered`), then every tool the model called without being offered
 * it or `find_tool` found, from the next step on. With `"all"`, every installed tool.
 */
import type { Conversation } from '../../memory/ports.ts';
import type { Tool, ToolDescriptor, ToolRegistry } from '../../tools/ports.ts';
import { FIND_TOOL } from '../tools/find-tool.ts';
import type { ToolSelector } from './tool-selector.ts';

export interface ToolSelectionSettings {
  mode: 'relevant' | 'all';
  /** Installed tools offered at most beyond the core, per turn, by relevance. */
  maxOffered: number;
}

/** The owner's messages of the conversation that count as "recent". */
const RECENT_MESSAGES = 2;

/** Hearth's own tools: always offered. */
export const isCore = (tool: Pick<Tool, 'source'>): boolean => tool.source === 'builtin';

export interface TurnOffer {
  /** The offered tools, in the registry's order. */
  tools(): Tool[];
  /** Their descriptors, for the request of this step. */
  specs(): ToolDescriptor[];
  /** Offers these tools from the next step on; whether any was not offered yet. */
  add(names: readonly string[]): boolean;
}

/** The owner's last messages in the conversation, oldest first. */
export function recentMessages(conversation: Pick<Conversation, 'history'>): string[] {
  const recent: string[] = [];
  for (let i = conversation.history.length - 1; i >= 0 && recent.length < RECENT_MESSAGES; i--) {
    const message = conversation.history[i]!;
    if (message.role === 'user') recent.unshift(message.content);
  }
  return recent;
}

export async function offerForTurn(
  deps: { registry: ToolRegistry; selector: ToolSelector; settings: ToolSelectionSettings },
  message: string,
  recent: readonly string[],
): Promise<TurnOffer> {
  const installed = deps.registry.list();
  const offered = new Set<string>();
  if (deps.settings.mode === 'all') {
    // `find_tool` leads to tools not offered yet: with every tool offered it has no use.
    for (const tool of installed) if (tool.name !== FIND_TOOL) offered.add(tool.name);
  } else {
    for (const tool of installed) if (isCore(tool)) offered.add(tool.name);
    const relevant = await deps.selector.select({
      tools: installed.filter((tool) => !isCore(tool)),
      message,
      recent,
      maxOffered: deps.settings.maxOffered,
    });
    for (const tool of relevant) offered.add(tool.name);
  }
  const tools = () => deps.registry.list().filter((tool) => offered.has(tool.name));
  return {
    tools,
    specs: () =>
      tools().map(({ name, description, parameters }) => ({ name, description, parameters })),
    add(names) {
      let added = false;
      for (const name of names) {
        if (offered.has(name) || deps.registry.get(name) === undefined) continue;
        offered.add(name);
        added = true;
      }
      return added;
    },
  };
}
