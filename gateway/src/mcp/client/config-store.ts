import type { ConfigTable } from '../../config/write.ts';
import type { McpServerEntry, McpServerStore } from '../ports.ts';

/** Writes one section's keys of config.toml (config/write.ts `updateConfigFile`). */
export type UpdateConfig = (
  section: string,
  values: Record<string, ConfigTable[]>,
) => Promise<void>;

/** An entry as written back: defaults left out, so the file stays as a person would write it. */
export function tableOf(entry: McpServerEntry): ConfigTable {
  const table: ConfigTable = { name: entry.name };
  if (entry.command !== undefined) table.command = entry.command;
  if (entry.args.length > 0) table.args = [...entry.args];
  if (Object.keys(entry.env).length > 0) table.env = { ...entry.env };
  if (entry.url !== undefined) table.url = entry.url;
  table.enabled = entry.enabled;
  if (entry.tools !== undefined) table.tools = [...entry.tools];
  return table;
}

/** `[[mcp.servers]]` in config.toml, written atomically with its comments kept. */
export function configServerStore(update: UpdateConfig): McpServerStore {
  return { save: (servers) => update('mcp', { servers: servers.map(tableOf) }) };
}
