import { HearthError } from '../errors.ts';
import type { Tool, ToolDescriptor, ToolRegistry } from './contract.ts';

export type { Tool, ToolContext, ToolDescriptor, ToolRegistry } from './contract.ts';

const NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/** The in-process registry: one per gateway. */
export function createToolRegistry(): ToolRegistry {
  const tools = new Map<string, Tool>();
  return {
    register(tool) {
      if (!NAME.test(tool.name))
        throw new HearthError('validation', `Invalid tool name '${tool.name}'`);
      if (tools.has(tool.name))
        throw new HearthError('conflict', `A tool named '${tool.name}' is already registered`);
      tools.set(tool.name, tool);
    },
    unregister: (name) => tools.delete(name),
    get: (name) => tools.get(name),
    list: () => [...tools.values()],
    specs: (): ToolDescriptor[] =>
      [...tools.values()].map(({ name, description, parameters }) => ({
        name,
        description,
        parameters,
      })),
  };
}
