/**
 * The agent area's public face: the chat pipeline, as the voice, channels and the gateway's
 * callers use it. Other areas import only this file.
 */
import type { Area } from '../lifecycle/area.ts';
import type { ChatPipeline } from './pipeline.ts';

export type { ChatPipeline };

/** The agent area as other areas see it. */
export interface AgentArea extends Area {
  /** The chat pipeline; 503 "The agent is starting" before the phase has run. */
  readonly pipeline: () => ChatPipeline;
  /** Whether the pipeline is built (`runtime_available`). */
  readonly available: () => boolean;
}
export { AGENT_TOOLS } from './tools/builtin-names.ts';
