import type { TeamVerdict } from './team-types.js';

/** The time ranges the filter offers; `custom` takes the two instants typed by the person. */
export const TEAM_RANGES = [
  { id: '24h', label: 'last 24 hours', hours: 24 },
  { id: '7d', label: 'last 7 days', hours: 24 * 7 },
  { id: '30d', label: 'last 30 days', hours: 24 * 30 },
  { id: 'all', label: 'all time', hours: null },
  { id: 'custom', label: 'custom…', hours: null },
] as const;
export type TeamRangeId = (typeof TEAM_RANGES)[number]['id'];

/** What the filter form holds, as typed. Empty strings mean "any". */
export interface TeamFilters {
  /** A principal id (an operator's choice); empty: every principal the key may read. */
  readonly principal: string;
  readonly host: string;
  readonly verdict: '' | TeamVerdict;
  readonly tool: string;
  readonly program: string;
  readonly range: TeamRangeId;
  /** `datetime-local` values (the browser's local time), read only when `range` is `custom`. */
  readonly since: string;
  readonly until: string;
}

export const NO_TEAM_FILTERS: TeamFilters = {
  principal: '',
  host: '',
  verdict: '',
  tool: '',
  program: '',
  range: '7d',
  since: '',
  until: '',
};

/** A filter a person typed that cannot be asked, in their terms. */
export class TeamFilterError extends Error {
  override readonly name = 'TeamFilterError';
}

function instant(text: string, what: string): string {
  const time = new Date(text);
  if (Number.isNaN(time.getTime())) throw new TeamFilterError(`${what} is not a date and time: "${text}"`);
  return time.toISOString();
}

/** The `since` and `until` bounds of a range, as ISO instants; `now` is injected so tests need no clock. */
export function rangeBounds(filters: TeamFilters, now: Date): { since?: string; until?: string } {
  if (filters.range === 'custom') {
    const since = filters.since.trim() ? instant(filters.since, 'Since') : undefined;
    const until = filters.until.trim() ? instant(filters.until, 'Until') : undefined;
    if (since !== undefined && until !== undefined && since > until)
      throw new TeamFilterError('Since is after Until: no record can be in that range');
    return { ...(since ? { since } : {}), ...(until ? { until } : {}) };
  }
  const range = TEAM_RANGES.find((entry) => entry.id === filters.range);
  if (!range) throw new TeamFilterError(`unknown time range "${filters.range}"`);
  if (range.hours === null) return {};
  return { since: new Date(now.getTime() - range.hours * 3_600_000).toISOString() };
}

/**
 * The query string of `GET /v1/gate/records` and `/v1/gate/stats` for these filters (the two
 * routes take the same ones), without the paging members. Names are trimmed; empty ones are left out.
 */
export function teamQuery(filters: TeamFilters, now: Date): URLSearchParams {
  const query = new URLSearchParams();
  const named: [string, string][] = [
    ['principal', filters.principal],
    ['host', filters.host],
    ['verdict', filters.verdict],
    ['tool', filters.tool],
    ['program', filters.program],
  ];
  for (const [name, value] of named) if (value.trim()) query.set(name, value.trim());
  const bounds = rangeBounds(filters, now);
  if (bounds.since) query.set('since', bounds.since);
  if (bounds.until) query.set('until', bounds.until);
  return query;
}

/** The query of the next (older) page: the same filters and the cursor the last page gave. */
export function nextPageQuery(
  query: URLSearchParams,
  after: string | number,
  limit: number,
): URLSearchParams {
  const next = new URLSearchParams(query);
  next.set('limit', String(limit));
  next.set('after', String(after));
  return next;
}
