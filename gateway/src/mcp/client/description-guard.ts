/**
 * An MCP server's tool descriptions are data for the model, not instructions to it: each is
 * read like a hub package's (hidden characters, instructions to the assistant, requests for
 * secrets, shell commands, rules about other tools) before the tool is exposed, and what the
 * model is shown is capped at `MAX_DESCRIPTION_CHARS`.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { capDescription, checkDescription } from '../../skills/ports.ts';

/** The description and its parameters' descriptions: everything of a tool the model reads. */
function textsOf(tool: McpTool): string[] {
  const texts = [tool.description ?? '', tool.title ?? ''];
  const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties;
  for (const schema of Object.values(properties ?? {})) {
    const text = (schema as { description?: unknown } | null)?.description;
    if (typeof text === 'string') texts.push(text);
  }
  return texts;
}

/** The tools that may be exposed, and why each other one is withheld. */
export function screenTools(tools: readonly McpTool[]): {
  kept: McpTool[];
  withheld: { tool: string; reason: string }[];
} {
  const own = new Set<string>();
  for (const tool of tools) {
    own.add(tool.name);
    const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties;
    for (const name of Object.keys(properties ?? {})) own.add(name);
  }
  const kept: McpTool[] = [];
  const withheld: { tool: string; reason: string }[] = [];
  for (const tool of tools) {
    const issue = textsOf(tool)
      .flatMap((text) => checkDescription(text, own))
      .at(0);
    if (issue) withheld.push({ tool: tool.name, reason: `its description ${issue.message}` });
    else kept.push(tool);
  }
  return { kept, withheld };
}

/** What the model is shown as the tool's description. */
export function shownDescription(text: string): string {
  return capDescription(text).description;
}
