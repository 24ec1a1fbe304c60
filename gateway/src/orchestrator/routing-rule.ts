/**
 * The routing rule (spec rule 19), a pure function:
 *
 * 1. Candidates are the enabled nodes that take the task's type and serve its channel. A node
 *    with no `task_types` takes every type; one with no `channels` serves every channel; a task
 *    that names no type (or no channel) is not filtered on it. Comparisons ignore case.
 * 2. Each candidate scores one point per distinct keyword found in the content as a whole word
 *    or phrase (case-insensitive; letters and digits on either side break a match).
 * 3. The highest score wins; ties go to the higher `priority`, then to the name that sorts
 *    first. The same nodes and task always choose the same node.
 *
 * No candidate: the decision says, node by node, why each was left out.
 */
import type { OrchestratorNode } from './ports.ts';

export interface RoutingTask {
  task_type?: string;
  channel?: string;
  content?: string;
}

export interface RankedNode {
  node: OrchestratorNode;
  score: number;
  matched_keywords: string[];
}

export interface Rejection {
  name: string;
  reason: string;
}

export interface RoutingDecision {
  /** The winner, or undefined when no node is a candidate. */
  chosen: RankedNode | undefined;
  /** Every candidate, best first (the winner first). */
  ranking: RankedNode[];
  /** The nodes left out, by name, with the reason. */
  rejected: Rejection[];
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Lower case and NFC, so "É" typed either way matches. */
export const normaliseText = (text: string): string => text.normalize('NFC').toLowerCase();

/** True when `keyword` (already normalised) occurs in `text` with no letter or digit either side. */
export function containsWord(text: string, keyword: string): boolean {
  if (keyword === '') return false;
  for (let at = text.indexOf(keyword); at !== -1; at = text.indexOf(keyword, at + 1)) {
    const before = text[at - 1];
    const after = text[at + keyword.length];
    const boundedBefore = before === undefined || !WORD_CHAR.test(before);
    const boundedAfter = after === undefined || !WORD_CHAR.test(after);
    if (boundedBefore && boundedAfter) return true;
  }
  return false;
}

function rejectionOf(
  node: OrchestratorNode,
  taskType: string | undefined,
  channel: string | undefined,
) {
  if (!node.enabled) return 'disabled';
  if (taskType !== undefined && node.task_types.length > 0 && !node.task_types.includes(taskType))
    return `takes task types ${node.task_types.join(', ')}, not '${taskType}'`;
  if (channel !== undefined && node.channels.length > 0 && !node.channels.includes(channel))
    return `serves channels ${node.channels.join(', ')}, not '${channel}'`;
  return undefined;
}

const byRank = (a: RankedNode, b: RankedNode): number =>
  b.score - a.score ||
  b.node.priority - a.node.priority ||
  (a.node.name < b.node.name ? -1 : a.node.name > b.node.name ? 1 : 0);

export function chooseNode(nodes: readonly OrchestratorNode[], task: RoutingTask): RoutingDecision {
  const taskType = task.task_type === undefined ? undefined : normaliseText(task.task_type);
  const channel = task.channel === undefined ? undefined : normaliseText(task.channel);
  const content = normaliseText(task.content ?? '');
  const ranking: RankedNode[] = [];
  const rejected: Rejection[] = [];
  for (const node of nodes) {
    const reason = rejectionOf(node, taskType, channel);
    if (reason !== undefined) {
      rejected.push({ name: node.name, reason });
      continue;
    }
    const matched = [...new Set(node.keywords.map(normaliseText))].filter((keyword) =>
      containsWord(content, keyword),
    );
    ranking.push({ node, score: matched.length, matched_keywords: matched });
  }
  ranking.sort(byRank);
  return { chosen: ranking[0], ranking, rejected };
}

/** The 404 detail when nothing matched: what was asked and why each node was left out. */
export function noMatchDetail(
  task: RoutingTask,
  rejected: readonly Rejection[],
  limit = 20,
): string {
  const asked = [
    task.task_type === undefined ? 'any task type' : `task type '${task.task_type}'`,
    task.channel === undefined ? 'any channel' : `channel '${task.channel}'`,
  ].join(' and ');
  if (rejected.length === 0)
    return `No orchestrator node matches ${asked}: no nodes are registered (add one with POST /orchestrator/nodes)`;
  const reasons = rejected.slice(0, limit).map((r) => `${r.name} ${r.reason}`);
  const more = rejected.length > limit ? `; and ${rejected.length - limit} more` : '';
  return `No orchestrator node matches ${asked}: ${reasons.join('; ')}${more}`;
}
