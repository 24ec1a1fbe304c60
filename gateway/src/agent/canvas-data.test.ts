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
});
