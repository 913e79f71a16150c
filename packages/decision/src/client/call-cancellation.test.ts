import { describe, expect, it } from 'vitest';
import { CallCancellation } from './call-cancellation.js';

describe('CallCancellation', () => {
  it('makes a signal that aborts with the call, with its reason', () => {
    const cancellation = new CallCancellation();
    const { signal } = cancellation;
    expect(signal.aborted).toBe(false);
    cancellation.abort(new Error('budget'));
    expect(cancellation.aborted).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toEqual(new Error('budget'));
  });

  it('gives a signal first read after the abort already aborted, with the first reason', () => {
    const cancellation = new CallCancellation();
    cancellation.abort('first');
    cancellation.abort('second');
    expect(cancellation.signal.aborted).toBe(true);
    expect(cancellation.signal.reason).toBe('first');
  });

  it('returns the same signal on every read', () => {
    const cancellation = new CallCancellation();
    expect(cancellation.signal).toBe(cancellation.signal);
  });

  it('settles `stopped` on abort, whether it was asked for before or after', async () => {
    const before = new CallCancellation();
    const stopped = before.stopped;
    let settled = false;
    void stopped.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    before.abort();
    await stopped;
    expect(settled).toBe(true);

    const after = new CallCancellation();
    after.abort();
    await expect(after.stopped).resolves.toBeUndefined();
  });
});
