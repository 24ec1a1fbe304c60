import { describe, expect, it } from 'vitest';
import type { OrchestratorNode } from './ports.ts';
import { chooseNode, containsWord, noMatchDetail, type RoutingTask } from './routing-rule.ts';

function node(name: string, fields: Partial<OrchestratorNode> = {}): OrchestratorNode {
  return {
    name,
    model_override: 'gpt-4o',
    enabled: true,
    priority: 0,
    keywords: [],
    channels: [],
    task_types: [],
    system_prompt: null,
    created_at: 0,
    updated_at: 0,
    ...fields,
  };
}

const coder = node('coder', { task_types: ['code'], keywords: ['typescript', 'bug', 'unit test'] });
const reviewer = node('reviewer', {
  task_types: ['code', 'review'],
  keywords: ['review', 'bug'],
  priority: 5,
});
const writer = node('writer', {
  task_types: ['writing'],
  channels: ['api', 'email'],
  keywords: ['essay'],
});
const general = node('general', { priority: -1 });
const telegramOnly = node('tg', { channels: ['telegram'], keywords: ['weather'], priority: 10 });
const off = node('off', {
  enabled: false,
  keywords: ['typescript', 'bug', 'unit test', 'review'],
  priority: 99,
});
const all = [coder, reviewer, writer, general, telegramOnly, off];

describe('the routing rule: candidates by task type and channel, keyword hits, then priority, then name', () => {
  const table: [
    label: string,
    nodes: OrchestratorNode[],
    task: RoutingTask,
    chosen: string | undefined,
    ranking: string[],
  ][] = [
    [
      'most keyword hits wins over priority',
      all,
      { task_type: 'code', channel: 'api', content: 'A TypeScript bug' },
      'coder',
      ['coder', 'reviewer', 'general'],
    ],
    [
      'a tie on hits goes to the higher priority',
      all,
      { task_type: 'code', channel: 'api', content: 'one bug' },
      'reviewer',
      ['reviewer', 'coder', 'general'],
    ],
    [
      'no hits at all: priority decides among candidates',
      all,
      { task_type: 'code', channel: 'api', content: 'hello' },
      'reviewer',
      ['reviewer', 'coder', 'general'],
    ],
    [
      'a tie on hits and priority goes to the name that sorts first',
      [node('beta'), node('alpha'), node('gamma')],
      { content: 'x' },
      'alpha',
      ['alpha', 'beta', 'gamma'],
    ],
    [
      'a node with no task types takes every task type',
      all,
      { task_type: 'chat', channel: 'api', content: 'hi' },
      'general',
      ['general'],
    ],
    [
      'a node limited to channels is left out elsewhere',
      all,
      { task_type: 'chat', channel: 'api', content: 'weather today' },
      'general',
      ['general'],
    ],
    [
      'the channel filter admits its own channel',
      all,
      { task_type: 'chat', channel: 'telegram', content: 'weather today' },
      'tg',
      ['tg', 'general'],
    ],
    [
      'task type and channel compare without case',
      all,
      { task_type: 'WRITING', channel: 'Email', content: 'an ESSAY please' },
      'writer',
      ['writer', 'general'],
    ],
    [
      'an omitted task type and channel filter nothing',
      all,
      { content: 'essay' },
      'writer',
      ['writer', 'tg', 'reviewer', 'coder', 'general'],
    ],
    [
      'a disabled node is never chosen, however well it scores',
      all,
      { task_type: 'code', channel: 'api', content: 'typescript bug unit test review' },
      'coder',
      ['coder', 'reviewer', 'general'],
    ],
    [
      'keywords match whole words only',
      [coder, general],
      { task_type: 'code', content: 'debugging typescripts' },
      'coder',
      ['coder', 'general'],
    ],
    [
      'a phrase keyword matches across one space',
      [coder, reviewer],
      { task_type: 'code', content: 'write a Unit Test for it' },
      'coder',
      ['coder', 'reviewer'],
    ],
    [
      'a repeated keyword counts once',
      [coder, reviewer],
      { task_type: 'code', content: 'bug bug bug review' },
      'reviewer',
      ['reviewer', 'coder'],
    ],
    ['no node takes the task type', [coder, writer], { task_type: 'chat' }, undefined, []],
    ['no nodes at all', [], { task_type: 'code' }, undefined, []],
  ];

  it.each(table)('%s', (_label, nodes, task, chosen, ranking) => {
    const decision = chooseNode(nodes, task);
    expect(decision.chosen?.node.name).toBe(chosen);
    expect(decision.ranking.map((r) => r.node.name)).toEqual(ranking);
  });

  it('is deterministic: the order nodes are listed in never changes the choice', () => {
    const task = { task_type: 'code', content: 'a bug' };
    const forward = chooseNode(all, task);
    const backward = chooseNode([...all].reverse(), task);
    expect(backward.ranking.map((r) => r.node.name)).toEqual(
      forward.ranking.map((r) => r.node.name),
    );
  });

  it('reports the score and the keywords that matched', () => {
    const decision = chooseNode([coder], { task_type: 'code', content: 'TypeScript: a bug!' });
    expect(decision.chosen).toMatchObject({ score: 2, matched_keywords: ['typescript', 'bug'] });
  });

  it('says why each node was left out', () => {
    const decision = chooseNode(all, { task_type: 'writing', channel: 'telegram' });
    expect(decision.ranking.map((r) => r.node.name)).toEqual(['tg', 'general']);
    expect(decision.rejected).toEqual([
      { name: 'coder', reason: "takes task types code, not 'writing'" },
      { name: 'reviewer', reason: "takes task types code, review, not 'writing'" },
      { name: 'writer', reason: "serves channels api, email, not 'telegram'" },
      { name: 'off', reason: 'disabled' },
    ]);
  });
});

describe('whole-word keyword matching', () => {
  it.each([
    ['a bug here', 'bug', true],
    ['debug', 'bug', false],
    ['bugs', 'bug', false],
    ['(bug)', 'bug', true],
    ['bug', 'bug', true],
    ['café au lait', 'café', true],
    ['cafés', 'café', false],
    ['x', '', false],
  ])('%j contains %j: %s', (text, keyword, expected) => {
    expect(containsWord(text, keyword)).toBe(expected);
  });
});

describe('the no-match detail', () => {
  it('names what was asked and why each node was left out', () => {
    const { rejected } = chooseNode([coder, off], { task_type: 'chat', channel: 'api' });
    expect(noMatchDetail({ task_type: 'chat', channel: 'api' }, rejected)).toBe(
      "No orchestrator node matches task type 'chat' and channel 'api': coder takes task types code, not 'chat'; off disabled",
    );
  });
  it('says when no node is registered', () => {
    expect(noMatchDetail({}, [])).toMatch(/any task type and any channel: no nodes are registered/);
  });
  it('lists at most the first reasons and counts the rest', () => {
    const many = Array.from({ length: 25 }, (_, i) =>
      node(`n${String(i).padStart(2, '0')}`, { enabled: false }),
    );
    const detail = noMatchDetail({}, chooseNode(many, {}).rejected);
    expect(detail).toContain('n19 disabled; and 5 more');
    expect(detail).not.toContain('n20');
  });
});
