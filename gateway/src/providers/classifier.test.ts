import { describe, expect, it } from 'vitest';
import { classifyTask } from './classifier.ts';

describe('task complexity', () => {
  it.each([
    ['hi!', 'simple'],
    ['What time is it in Tokyo?', 'simple'],
    ['Turn off the kitchen lights', 'simple'],
    ['thanks, that worked', 'simple'],
    ['What is the capital of Peru?', 'simple'],
    ['remind me to buy milk tomorrow', 'simple'],
    ['Compare PostgreSQL and SQLite for a home server', 'complex'],
    ['Can you debug this for me?', 'complex'],
    ['Explain why the sky is blue', 'complex'],
    ['Walk me through it step by step', 'complex'],
    ['Write a program that renames my photos by date', 'complex'],
    ['Design a backup strategy for my NAS', 'complex'],
    ['```js\nconsole.log(1)\n```', 'complex'],
    ['def f(x):\n    return x * 2', 'complex'],
    ['Who? What? Where? When?', 'complex'],
    ['first paragraph\n\nsecond paragraph', 'complex'],
    ['x'.repeat(281), 'complex'],
  ])('%j is %s', (text, expected) => {
    expect(classifyTask(text)).toBe(expected);
  });
});
