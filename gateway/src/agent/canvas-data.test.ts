import { describe, expect, it } from 'vitest';
import { extractCanvasData } from './canvas-data.ts';

describe('chart data in a reply', () => {
  it('reads a fenced JSON block', () => {
    const reply =
      'Here you go:\n```json\n{"type": "line", "labels": ["Mon", "Tue"], "values": [3, 5.5]}\n```';
    expect(extractCanvasData(reply)).toEqual({
      type: 'line',
      labels: ['Mon', 'Tue'],
      values: [3, 5.5],
    });
  });

  it('reads a two-column Markdown table of numbers as a bar chart', () => {
    const reply =
      '| Fruit | Sold |\n|---|---:|\n| Apples | 12 |\n| Pears | 1,204 |\n| Kiwis | 7.5 |';
    expect(extractCanvasData(reply)).toEqual({
      type: 'bar',
      labels: ['Apples', 'Pears', 'Kiwis'],
      values: [12, 1204, 7.5],
    });
  });

  it.each([
    'Paris is the capital of France.',
    '| Name | City |\n|---|---|\n| Ada | Leeds |\n| Bob | York |',
    '```json\n{"labels": ["a", "b"], "values": [1]}\n```',
    '```json\n{"labels": ["a"], "values": ["x"]}\n```',
  ])('finds nothing chart-like in %j', (reply) => {
    expect(extractCanvasData(reply)).toBeUndefined();
  });

  it('reads a bare JSON object and a percentage with blanks before the sign', () => {
    expect(extractCanvasData('Data: {"labels": ["a"], "values": [2]} done')).toEqual({
      type: 'bar',
      labels: ['a'],
      values: [2],
    });
    const table = '| k | v |\n|---|---|\n| a | 1.5 % |\n| b | 2 % |';
    expect(extractCanvasData(table)?.values).toEqual([1.5, 2]);
  });

  // A reply is model text: no shape of it may take more than linear time (each of these took
  // 85–925 ms at 32 KB with the earlier patterns).
  it.each([
    ['a fence opening followed by newlines only', '```' + '\n'.repeat(32_768)],
    ['an unclosed brace full of "labels"', '{' + '"labels"'.repeat(4_096)],
    ['a table cell of a digit, blanks and a letter', `| a | 1${' '.repeat(32_768)}x |\n`.repeat(3)],
  ])('reads %s in linear time', (_name, reply) => {
    const started = performance.now();
    expect(extractCanvasData(reply)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(50);
  });
});
