/** The built-ins the agent registers, reserved by its installer before any skill loads. */
export const AGENT_TOOLS = ['current_time', 'memory_search', 'find_tool'] as const;
