/** The agent's name, reported by /health (a file of its own: the early listener reads it). */
export const AGENT_NAME = 'hearth';
