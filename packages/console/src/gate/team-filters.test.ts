import { describe, expect, it } from 'vitest';
import { NO_TEAM_FILTERS, nextPageQuery, rangeBounds, TeamFilterError, teamQuery } from './team-filters.js';

const NOW = new Date('2026-11-28T12:00:00.000Z');

describe('teamQuery', () => {
  it('asks the last seven days and nothing else by default', () => {
    expect(teamQuery(NO_TEAM_FILTERS, NOW).toString()).toBe('since=2026-11-21T12%3A00%3A00.000Z');
  });

  it('sends each filter that is set, trimmed, and leaves out the empty ones', () => {
    const query = teamQuery(
      {
        ...NO_TEAM_FILTERS,
        principal: 'prn_1',
        host: ' claude-code ',
        verdict: 'ASK',
        program: 'npm',
        range: 'all',
      },
      NOW,
    );
    expect([...query.entries()]).toEqual([
      ['principal', 'prn_1'],
      ['host', 'claude-code'],
      ['verdict', 'ASK'],
      ['program', 'npm'],
    ]);
  });

  it('pages on with the same filters and the cursor the last page gave', () => {
    const first = teamQuery({ ...NO_TEAM_FILTERS, tool: 'Bash', range: 'all' }, NOW);
    expect(nextPageQuery(first, 41, 50).toString()).toBe('tool=Bash&limit=50&after=41');
    // The first page's query is not changed by asking the next.
    expect(first.toString()).toBe('tool=Bash');
  });
});

describe('rangeBounds', () => {
  it('counts back from the injected clock', () => {
    expect(rangeBounds({ ...NO_TEAM_FILTERS, range: '24h' }, NOW)).toEqual({
      since: '2026-11-27T12:00:00.000Z',
    });
    expect(rangeBounds({ ...NO_TEAM_FILTERS, range: '30d' }, NOW)).toEqual({
      since: '2026-10-29T12:00:00.000Z',
    });
    expect(rangeBounds({ ...NO_TEAM_FILTERS, range: 'all' }, NOW)).toEqual({});
  });

  it('reads a custom range as typed, either end open', () => {
    const since = '2026-11-01T08:30';
    expect(rangeBounds({ ...NO_TEAM_FILTERS, range: 'custom', since }, NOW)).toEqual({
      since: new Date(since).toISOString(),
    });
    expect(rangeBounds({ ...NO_TEAM_FILTERS, range: 'custom' }, NOW)).toEqual({});
  });

  it('refuses a custom range that is not a date, or ends before it starts, saying which', () => {
    expect(() => rangeBounds({ ...NO_TEAM_FILTERS, range: 'custom', since: 'yesterday' }, NOW)).toThrow(
      new TeamFilterError('Since is not a date and time: "yesterday"'),
    );
    expect(() =>
      rangeBounds(
        { ...NO_TEAM_FILTERS, range: 'custom', since: '2026-11-02T00:00', until: '2026-11-01T00:00' },
        NOW,
      ),
    ).toThrow('Since is after Until');
  });
});
