import { keywordsOf } from '../memory/ports.ts';

const REFUSAL =
  /\b(i can(no|')t (help|assist|do that)|i'?m (sorry, but|unable to)|i am unable to|as an ai( language model)?|i (won'?t|will not) be able to)\b/i;

/**
 * A cheap reflection heuristic over a reply, 0 to 1, computed without any model call:
 * - an empty reply scores 0;
 * - base 0.5;
 * - relevance: up to +0.3 for the share of the question's keywords the reply mentions
 *   (+0.15 when the question has no keywords to check);
 * - completeness: +0.1 when the reply ends like a finished sentence or block, +0.1 when its
 *   length suits the question (not a one-word answer to a long question); −0.2 when the model
 *   stopped at its token limit;
 * - a refusal is capped at 0.3.
 */
export function qualityScore(question: string, reply: string, finishReason = 'stop'): number {
  const text = reply.trim();
  if (text === '') return 0;
  let score = 0.5;
  const keywords = keywordsOf(question, 6);
  if (keywords.length === 0) score += 0.15;
  else {
    const lower = text.toLowerCase();
    score += (0.3 * keywords.filter((k) => lower.includes(k)).length) / keywords.length;
  }
  if (/[.!?)\]`"'”:*]$|\n```$/.test(text)) score += 0.1;
  if (!(question.length > 120 && text.length < 20)) score += 0.1;
  if (finishReason === 'length') score -= 0.2;
  if (REFUSAL.test(text)) score = Math.min(score, 0.3);
  return Math.round(Math.max(0, Math.min(1, score)) * 100) / 100;
}
