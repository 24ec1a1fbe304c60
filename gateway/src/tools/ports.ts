import type { Area } from '../lifecycle/area.ts';
import type { ToolRuntime } from './build-tools.ts';
import type { ToolRegistry } from './contract.ts';

export type { Tool, ToolContext, ToolDescriptor, ToolRegistry } from './contract.ts';
export { OWNER_DESCRIBED } from './contract.ts';
export type { ToolRuntime };

/** The tools area as other areas see it. */
export interface ToolsArea extends Area {
  /** The gateway's one registry: built-ins, skills, plugins, hub packages, MCP servers' tools. */
  readonly registry: ToolRegistry;
  /** The executor and browser; 503 before the phase has run. */
  readonly runtime: () => ToolRuntime;
  readonly peek: () => ToolRuntime | undefined;
}
export { createToolRegistry } from './registry.ts';
export { createSchemaChecker } from './schema-check/schema-checker.ts';
export type {
  JsonSchema,
  SchemaCheckCounts,
  SchemaChecker,
  SchemaVerdict,
} from './schema-check/schema-checker.ts';
export { BUILTIN_TOOLS } from './builtin-names.ts';
