/**
 * Task complexity, from the user's text alone (no model call). `complex` sends the turn to the
 * primary model first; `simple` to the fast model first. A message is complex when any holds:
 * - it is long (over 280 characters) or spans several paragraphs;
 * - it contains code (a fenced block, or several lines that look like code);
 * - it asks for reasoning or production work (analyse, compare, design, debug, explain why,
 *   step by step, plan, refactor, prove, write an essay/report/program, …);
 * - it asks several questions at once.
 * Everything else (greetings, short factual questions, small requests) is simple.
 */
export type TaskComplexity = 'simple' | 'complex';

const REASONING_WORDS =
  /\b(analy[sz]e|analysis|compare|comparison|design|architect|debug|diagnose|explain why|why does|step[- ]by[- ]step|plan|strategy|refactor|optimi[sz]e|prove|derive|evaluate|trade-?offs?|pros and cons|summari[sz]e (this|the following)|translate the following|review (this|my)|write (an?|the) (essay|report|article|program|script|function|story|proposal|plan))\b/i;
const CODE_LINE =
  /^\s*(def |class |function |const |let |import |from |#include|SELECT |for \(|if \(|return |public |fn )/m;

export function classifyTask(text: string): TaskComplexity {
  const trimmed = text.trim();
  if (trimmed.length > 280) return 'complex';
  if (/\n\s*\n/.test(trimmed)) return 'complex';
  if (trimmed.includes('```')) return 'complex';
  if (CODE_LINE.test(trimmed) && trimmed.split('\n').length > 1) return 'complex';
  if (REASONING_WORDS.test(trimmed)) return 'complex';
  if ((trimmed.match(/\?/g) ?? []).length >= 3) return 'complex';
  return 'simple';
}
