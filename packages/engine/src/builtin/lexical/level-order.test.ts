import { describe, expect, it } from 'vitest';
import { levelOrderOf } from './level-order.js';

describe('levelOrderOf', () => {
  it('reads the order of levels from the numbers or intensity words they name', () => {
    const stars = ['1 star', '2 stars', '3 stars', '4 stars', '5 stars'];
    expect(levelOrderOf(stars)).toBe(1);
    expect(levelOrderOf([...stars].reverse())).toBe(-1);
    expect(levelOrderOf(['0', '1', '2', '3', '4'])).toBe(1);
    const intensity = ['not at all', 'a little', 'somewhat', 'very', 'extremely'];
    expect(levelOrderOf(intensity)).toBe(1);
    expect(levelOrderOf([...intensity].reverse())).toBe(-1);
  });

  it('says nothing of levels that name no order', () => {
    expect(levelOrderOf(['bad', 'okay', 'good'])).toBe(0);
    expect(levelOrderOf(['5 stars'])).toBe(0);
  });
});
