/**
 * The command line the approval gate judges and a human approves for a call of an external MCP
 * server's tool: `mcp:<server>/<tool>` followed by the arguments as one single-quoted JSON word.
 * The allowlist matches the first word as a program name, so an entry `mcp:files/read_file`
 * allows that one tool and `mcp:files/*` every tool of the server (a glob's `*` never crosses
 * the `/`). Server and tool names are letters, digits, `_` and `-` (the registry's rule), so the
 * first word is always one literal word.
 */
export function gateCommand(server: string, tool: string, args: Record<string, unknown>): string {
  const program = `mcp:${server}/${tool}`;
  if (Object.keys(args).length === 0) return program;
  return `${program} ${singleQuoted(JSON.stringify(args))}`;
}

/** `text` as one shell word: single quotes, each inner `'` written as `'\''`. */
function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
