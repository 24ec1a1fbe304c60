/** The registry `source` of an external MCP server's tools. */
export const mcpOrigin = (server: string): string => `mcp:${server}`;

/** The namespace of a server's tools, `<server>__`, reserved for it while it is configured. */
export const mcpPrefix = (server: string): string => `${server}__`;
