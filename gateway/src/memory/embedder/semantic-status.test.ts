import { describe, expect, it } from 'vitest';
import { semanticAvailable } from './semantic-status.ts';

describe('memory.semantic_available', () => {
  it('is null until the load state is known, then true or false', () => {
    expect(semanticAvailable({ state: 'unknown' })).toBeNull();
    expect(semanticAvailable({ state: 'available' })).toBe(true);
    expect(semanticAvailable({ state: 'unavailable' })).toBe(false);
  });
});
