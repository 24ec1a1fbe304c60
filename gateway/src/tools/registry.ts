import { HearthError } from '../errors.ts';
import type { Tool, ToolDescriptor, ToolRegistry } from './contract.ts';

export type { Tool, ToolContext, ToolDescriptor, ToolRegistry } from './contract.ts';

const NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/**
 * The in-process registry: one per gateway. Reservations are made by the areas' installers,
 * before any start-up phase, so the load order never decides who holds a name.
 */
export function createToolRegistry(): ToolRegistry {
  const tools = new Map<string, Tool>();
  /** Reserved name → origin. */
  const names = new Map<string, string>();
  /** Reserved prefix → origin. */
  const prefixes = new Map<string, string>();

  const prefixHolding = (name: string): [string, string] | undefined =>
    [...prefixes].find(([prefix]) => name.startsWith(prefix));

  /** Why `origin` cannot have `name`; `ownCounts`: a tool it registered itself counts too. */
  function why(name: string, origin: string, ownCounts: boolean): string | null {
    const tool = tools.get(name);
    if (tool && (ownCounts || tool.source !== origin))
      return `Tool '${name}' (${origin}) collides with a tool already registered by ${tool.source}`;
    const reserved = names.get(name);
    if (reserved !== undefined && reserved !== origin)
      return `Tool '${name}' (${origin}) collides with a name reserved by ${reserved}`;
    const inside = prefixHolding(name);
    if (inside && inside[1] !== origin)
      return `Tool '${name}' (${origin}) is inside '${inside[0]}', reserved by ${inside[1]}`;
    return null;
  }

  return {
    register(tool) {
      if (!NAME.test(tool.name))
        throw new HearthError('validation', `Invalid tool name '${tool.name}'`);
      const problem = why(tool.name, tool.source, true);
      if (problem !== null) throw new HearthError('conflict', problem);
      tools.set(tool.name, tool);
    },
    reserve(name, origin) {
      const problem = why(name, origin, false);
      if (problem !== null) throw new HearthError('conflict', problem);
      names.set(name, origin);
    },
    reservePrefix(prefix, origin) {
      const overlapping = [...prefixes].find(
        ([held, by]) => by !== origin && (held.startsWith(prefix) || prefix.startsWith(held)),
      );
      if (overlapping)
        throw new HearthError(
          'conflict',
          `Tool names '${prefix}…' (${origin}) overlap '${overlapping[0]}…', reserved by ${overlapping[1]}`,
        );
      const held = [
        ...[...tools.values()].map((tool): [string, string] => [tool.name, tool.source]),
        ...names,
      ].find(([name, by]) => by !== origin && name.startsWith(prefix));
      if (held)
        throw new HearthError(
          'conflict',
          `Tool names '${prefix}…' (${origin}) would take '${held[0]}', held by ${held[1]}`,
        );
      prefixes.set(prefix, origin);
    },
    releasePrefix(prefix, origin) {
      if (prefixes.get(prefix) === origin) prefixes.delete(prefix);
    },
    conflict: (name, origin) => why(name, origin, false),
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
