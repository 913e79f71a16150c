import { describe, expect, it } from 'vitest';
import { metricHead } from './models-action.js';

describe('metricHead', () => {
  it('cuts at the first comma outside parentheses, never inside them', () => {
    expect(metricHead('AllNLI dev accuracy, 3-way, of the base PyTorch model')).toBe('AllNLI dev accuracy');
    expect(
      metricHead(
        'S1Bench macro accuracy over its 13 subsets (3,880 items), of the lev adapter (not, of this)',
      ),
    ).toBe('S1Bench macro accuracy over its 13 subsets (3,880 items)');
    expect(metricHead('accuracy (a, b')).toBe('accuracy (a, b');
    expect(metricHead('plain')).toBe('plain');
  });
});
