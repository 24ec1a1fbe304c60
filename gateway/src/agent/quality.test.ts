import { describe, expect, it } from 'vitest';
import { qualityScore } from './quality.ts';

describe('quality score', () => {
  it.each([
    ['What is the capital of Peru?', 'The capital of Peru is Lima.', 'stop', 1],
    ['What is the capital of Peru?', 'Lima', 'stop', 0.6],
    ['hello', 'Hi! How can I help?', 'stop', 0.7],
    ['What is the capital of Peru?', '', 'stop', 0],
    ['What is the capital of Peru?', "I'm sorry, but I can't help with that.", 'stop', 0.3],
    [
      'Explain how photosynthesis works in plants',
      'Photosynthesis in plants turns light into',
      'length',
      0.55,
    ],
  ])('%j → %j scores %d', (question, reply, finish, expected) => {
    expect(qualityScore(question, reply, finish)).toBe(expected);
  });

  it('ranks a relevant, complete answer above an off-topic one', () => {
    const q = 'How do I reset my router password?';
    expect(
      qualityScore(q, 'To reset the router password, hold the reset button for 10 seconds.'),
    ).toBeGreaterThan(qualityScore(q, 'Bananas are rich in potassium.'));
  });
});
