/** Why a skill tool call failed. Every one is a tool error for the agent, never a gateway failure. */
export type SkillCallFailure =
  | 'tool' // the tool threw; the skill host is still running
  | 'load' // the skill module did not load
  | 'timeout'
  | 'crashed'
  | 'output' // the answer exceeded the output cap
  | 'limit' // the host went over a resource limit (memory, CPU, threads, data quota) and was stopped
  | 'protocol'
  | 'aborted'
  | 'closed';

export class SkillCallError extends Error {
  readonly reason: SkillCallFailure;

  constructor(reason: SkillCallFailure, message: string) {
    super(message);
    this.name = 'SkillCallError';
    this.reason = reason;
  }
}
