import { describe, expect, it } from 'vitest';
import { describePriority, priorityLowering, provenPriorityLowering } from './sandbox-priority.js';

describe('priorityLowering', () => {
  const installed = (command: string) => `/usr/bin/${command}`;

  it('puts nice, then ionice, before bubblewrap, with the asked values', () => {
    expect(priorityLowering({ nice: 10, io: 'lowest' }, installed).prefix).toEqual([
      '/usr/bin/nice',
      '-n',
      '10',
      '/usr/bin/ionice',
      '-c',
      '2',
      '-n',
      '7',
    ]);
    expect(priorityLowering({ nice: 19, io: 'idle' }, installed).prefix).toEqual([
      '/usr/bin/nice',
      '-n',
      '19',
      '/usr/bin/ionice',
      '-c',
      '3',
    ]);
    expect(priorityLowering({ nice: 0, io: 'unchanged' }, installed).prefix).toEqual([]);
  });

  it('says plainly what holds where a program is missing', () => {
    const noIonice = priorityLowering({ nice: 10, io: 'lowest' }, (command) =>
      command === 'nice' ? '/usr/bin/nice' : null,
    );
    expect(noIonice).toEqual({ prefix: ['/usr/bin/nice', '-n', '10'], nice: 10, io: 'unchanged' });
    expect(describePriority(noIonice)).toBe('nice 10, I/O priority unchanged');
    const nothing = priorityLowering({ nice: 10, io: 'idle' }, () => null);
    expect(describePriority(nothing)).toBe('priority not lowered (nice 0, I/O priority unchanged)');
  });

  it('leaves out a part the host refuses rather than every program', async () => {
    // An `ionice` that fails as where ioprio_set is forbidden: only nice is kept.
    const lowering = await provenPriorityLowering({ nice: 10, io: 'lowest' }, (command) =>
      command === 'ionice' ? '/bin/false' : command === 'nice' ? '/usr/bin/nice' : null,
    );
    expect(lowering).toEqual({ prefix: ['/usr/bin/nice', '-n', '10'], nice: 10, io: 'unchanged' });
  });
});
