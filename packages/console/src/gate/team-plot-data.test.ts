import { describe, expect, it } from 'vitest';
import { approvalRate, dayColumns, niceCeiling, stackSegments, topPrograms } from './team-plot-data.js';

describe('dayColumns', () => {
  it('draws every day from the first to the last, a quiet day as zeros', () => {
    const { columns, hidden } = dayColumns([
      { day: '2026-11-27', ALLOW: 1, DENY: 0, ASK: 2 },
      { day: '2026-11-25', ALLOW: 4, DENY: 1, ASK: 0 },
    ]);
    expect(hidden).toBe(0);
    expect(columns.map((column) => [column.day, column.total])).toEqual([
      ['2026-11-25', 5],
      ['2026-11-26', 0],
      ['2026-11-27', 3],
    ]);
  });

  it('crosses a month end and keeps only the newest days, counting the days it left out', () => {
    const { columns, hidden } = dayColumns(
      [
        { day: '2026-10-01', ALLOW: 9, DENY: 0, ASK: 0 },
        { day: '2026-10-30', ALLOW: 1, DENY: 0, ASK: 0 },
        { day: '2026-11-02', ALLOW: 0, DENY: 1, ASK: 0 },
      ],
      5,
    );
    expect(columns.map((column) => column.day)).toEqual([
      '2026-10-29',
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
    ]);
    expect(hidden).toBe(1);
  });

  it('adds up a day sent twice, and names a malformed day', () => {
    const { columns } = dayColumns([
      { day: '2026-11-01', ALLOW: 1, DENY: 0, ASK: 0 },
      { day: '2026-11-01', ALLOW: 0, DENY: 2, ASK: 1 },
    ]);
    expect(columns).toEqual([{ day: '2026-11-01', ALLOW: 1, DENY: 2, ASK: 1, total: 4 }]);
    expect(() => dayColumns([{ day: '1 Nov', ALLOW: 1, DENY: 0, ASK: 0 }])).toThrow(
      'not a day (YYYY-MM-DD): "1 Nov"',
    );
    expect(dayColumns([])).toEqual({ columns: [], hidden: 0 });
  });
});

describe('niceCeiling', () => {
  it('rounds up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 26, 99, 101, 480].map(niceCeiling)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 50, 100, 200, 500,
    ]);
  });
});

describe('stackSegments', () => {
  it('stacks ALLOW, ASK and DENY bottom up, each as tall as its share of the scale', () => {
    expect(stackSegments({ day: '2026-11-01', ALLOW: 2, DENY: 1, ASK: 0 }, 4, 100)).toEqual([
      { verdict: 'ALLOW', count: 2, from: 0, size: 50 },
      { verdict: 'DENY', count: 1, from: 50, size: 25 },
    ]);
    expect(stackSegments({ day: '2026-11-01', ALLOW: 0, DENY: 0, ASK: 0 }, 1, 100)).toEqual([]);
  });
});

describe('topPrograms', () => {
  it('puts the most asked first, equal counts by name, and counts the programs left out', () => {
    const { programs, hidden } = topPrograms(
      [
        { program: 'npm', asked: 3, approved: 3, declined: 0 },
        { program: 'git', asked: 5, approved: 4, declined: 1 },
        { program: 'curl', asked: 3, approved: 0, declined: 3 },
      ],
      2,
    );
    expect(programs.map((entry) => entry.program)).toEqual(['git', 'curl']);
    expect(hidden).toBe(1);
  });
});

describe('approvalRate', () => {
  it("takes the server's rate, else the counts' ratio, and nothing before an answer", () => {
    expect(approvalRate({ asked: 6, approved: 5, declined: 1, pending: 0, rate: 5 / 6 })).toBe(5 / 6);
    expect(approvalRate({ asked: 2, approved: 0, declined: 0, pending: 2, rate: null })).toBeNull();
    expect(approvalRate({ asked: 4, approved: 1, declined: 3, pending: 0, rate: null })).toBe(0.25);
  });
});
