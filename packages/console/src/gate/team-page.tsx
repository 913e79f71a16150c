import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, api } from '../api-client.js';
import { ErrorNote, Section } from '../shared.js';
import { type FieldOption, FilterField } from './filter-field.js';
import { NO_TEAM_FILTERS, nextPageQuery, TEAM_RANGES, type TeamFilters, teamQuery } from './team-filters.js';
import { ApprovalRate, MostAskedPrograms, VerdictsPerDay } from './team-plots.js';
import { TeamRecordTable } from './team-records.js';
import { TeamSuggestions } from './team-suggestions.js';
import type { TeamRecordPage, TeamRecordRow, TeamStats } from './team-types.js';

/** Rows a page asks for; "Load more" asks the next as many. */
const PAGE_SIZE = 50;

const HOST_OPTIONS: readonly FieldOption[] = [
  { value: '', label: 'any' },
  ...['claude-code', 'gemini', 'codex', 'acp', 'other'].map((value) => ({ value })),
];
const VERDICT_OPTIONS: readonly FieldOption[] = [
  { value: '', label: 'any' },
  ...['ALLOW', 'ASK', 'DENY'].map((value) => ({ value })),
];
const RANGE_OPTIONS: readonly FieldOption[] = TEAM_RANGES.map((range) => ({
  value: range.id,
  label: range.label,
}));

interface PrincipalEntry {
  id: string;
  name: string;
}

/** What the key may see, as the API answers it: the page decides nothing about roles itself. */
type Access =
  | { status: 'checking' }
  | { status: 'operator'; principals: PrincipalEntry[] }
  | { status: 'own' }
  | { status: 'no-read'; failure: ApiFailure }
  | { status: 'failed'; error: unknown };

type Listing =
  | { status: 'idle' }
  | { status: 'loading' }
  | {
      status: 'loaded';
      rows: TeamRecordRow[];
      hasMore: boolean;
      nextAfter: string | number | null;
      query: URLSearchParams;
      stats: TeamStats | null;
      statsError: unknown;
    }
  | { status: 'failed'; error: unknown };

function isForbidden(error: unknown): error is ApiFailure {
  return error instanceof ApiFailure && error.status === 403;
}

/** An operator lists principals (`GET /v1/admin/principals`); any other key is refused there. */
async function checkAccess(): Promise<Access> {
  try {
    const { principals } = await api<{ principals: PrincipalEntry[] }>('/v1/admin/principals');
    return { status: 'operator', principals };
  } catch (error) {
    if (isForbidden(error)) return { status: 'own' };
    return { status: 'failed', error };
  }
}

async function loadFirst(filters: TeamFilters, now: Date): Promise<Listing> {
  const query = teamQuery(filters, now);
  const records = api<TeamRecordPage>(`/v1/gate/records?${firstPageQuery(query)}`);
  // The plots are a second request: a failure there leaves the rows shown, with its own error.
  const stats = api<TeamStats>(`/v1/gate/stats?${query}`).then(
    (value) => ({ value, error: null as unknown }),
    (error: unknown) => ({ value: null, error }),
  );
  const [page, plotted] = await Promise.all([records, stats]);
  return {
    status: 'loaded',
    rows: page.data,
    hasMore: page.has_more,
    nextAfter: page.next_after,
    query,
    stats: plotted.value,
    statsError: plotted.error,
  };
}

function firstPageQuery(query: URLSearchParams): URLSearchParams {
  const first = new URLSearchParams(query);
  first.set('limit', String(PAGE_SIZE));
  return first;
}

/**
 * The team's agents in one view (issue 32): every verdict the hooks installed with `--server`
 * reported, filtered, newest first; plots of verdicts per day, the most-asked programs and the
 * approval rate; and, for an operator, the suggested rules and the team policy.
 */
export function TeamPage() {
  const [access, setAccess] = useState<Access>({ status: 'checking' });
  const [filters, setFilters] = useState<TeamFilters>(NO_TEAM_FILTERS);
  const [listing, setListing] = useState<Listing>({ status: 'idle' });
  const [more, setMore] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });

  const search = async (applied: TeamFilters) => {
    setListing({ status: 'loading' });
    setMore({ busy: false, error: null });
    try {
      setListing(await loadFirst(applied, new Date()));
    } catch (error) {
      if (isForbidden(error)) setAccess({ status: 'no-read', failure: error });
      setListing({ status: 'failed', error });
    }
  };

  useEffect(() => {
    checkAccess().then((checked) => {
      setAccess(checked);
      if (checked.status !== 'failed') void search(filters);
    });
  }, []);

  const loadMore = async () => {
    if (listing.status !== 'loaded' || listing.nextAfter === null) return;
    setMore({ busy: true, error: null });
    try {
      const page = await api<TeamRecordPage>(
        `/v1/gate/records?${nextPageQuery(listing.query, listing.nextAfter, PAGE_SIZE)}`,
      );
      setListing({
        ...listing,
        rows: [...listing.rows, ...page.data],
        hasMore: page.has_more,
        nextAfter: page.next_after,
      });
      setMore({ busy: false, error: null });
    } catch (error) {
      setMore({ busy: false, error });
    }
  };

  // A field's name, value and setter: the form's values are the filters' own, so the string a
  // field reports is one of the values it offered (or, for a typed field, any text).
  const field = (name: keyof TeamFilters) => ({
    name,
    value: filters[name],
    onValue: (value: string) => setFilters({ ...filters, [name]: value }),
  });

  if (access.status === 'checking') return <p class="muted">Checking what this key may read…</p>;
  if (access.status === 'failed')
    return (
      <Section title="Team gate">
        <ErrorNote error={access.error} />
      </Section>
    );
  if (access.status === 'no-read')
    return (
      <Section title="Team gate">
        <p data-testid="team-no-read">
          This key may not read the team's verdicts. A <strong>reporter</strong> key only sends its hook's
          records; a <strong>member</strong> key reads its own principal's records, and an{' '}
          <strong>operator</strong> key everyone's and the suggested rules.
        </p>
        <ErrorNote error={access.failure} />
      </Section>
    );

  return (
    <>
      <Section title="The team's agents">
        {access.status === 'operator' ? null : (
          <p class="muted" data-testid="team-own-only">
            Your own records: a member key reads its principal's verdicts only; an operator key reads
            everyone's.
          </p>
        )}
        <form
          class="row team-filters"
          aria-label="team filters"
          onSubmit={(event) => {
            event.preventDefault();
            void search(filters);
          }}
        >
          {access.status === 'operator' ? (
            <FilterField
              label="Principal"
              {...field('principal')}
              options={[
                { value: '', label: 'everyone' },
                ...access.principals.map((principal) => ({ value: principal.id, label: principal.name })),
              ]}
            />
          ) : null}
          <FilterField label="Host" {...field('host')} options={HOST_OPTIONS} />
          <FilterField label="Verdict" {...field('verdict')} options={VERDICT_OPTIONS} />
          <FilterField label="Tool" {...field('tool')} size={10} />
          <FilterField label="Program" {...field('program')} size={10} />
          <FilterField label="Time" {...field('range')} options={RANGE_OPTIONS} />
          {filters.range === 'custom' ? (
            <>
              <FilterField label="Since" type="datetime-local" {...field('since')} />
              <FilterField label="Until" type="datetime-local" {...field('until')} />
            </>
          ) : null}
          <button type="submit" disabled={listing.status === 'loading'}>
            Filter
          </button>
        </form>
        {listing.status === 'loading' ? (
          <p class="muted" aria-live="polite">
            Loading the team's verdicts…
          </p>
        ) : null}
        {listing.status === 'failed' ? <ErrorNote error={listing.error} /> : null}
        {listing.status === 'loaded' ? (
          <>
            {listing.stats ? (
              <div class="team-plots">
                <div>
                  <h3>Verdicts per day</h3>
                  <VerdictsPerDay perDay={listing.stats.per_day} />
                </div>
                <div>
                  <h3>Most-asked programs</h3>
                  <MostAskedPrograms programs={listing.stats.asked_programs} />
                </div>
                <div>
                  <h3>Approval rate</h3>
                  <ApprovalRate approval={listing.stats.approval} />
                </div>
              </div>
            ) : (
              <ErrorNote error={listing.statsError} />
            )}
            {listing.rows.length === 0 ? (
              <p class="muted" data-testid="team-empty">
                No verdicts match these filters. Hooks report here once installed with{' '}
                <code>arbiter gate install &lt;host&gt; --server URL</code>.
              </p>
            ) : (
              <TeamRecordTable rows={listing.rows} />
            )}
            <p class="muted" data-testid="team-count">
              {listing.rows.length} shown{listing.hasMore ? ', more older ones' : ''}.
            </p>
            {listing.hasMore ? (
              <button type="button" class="secondary" disabled={more.busy} onClick={loadMore}>
                {more.busy ? 'Loading…' : 'Load more'}
              </button>
            ) : null}
            <ErrorNote error={more.error} />
          </>
        ) : null}
      </Section>
      {access.status === 'operator' ? (
        <TeamSuggestions />
      ) : (
        <Section title="Suggested rules">
          <p class="muted" data-testid="suggestions-operator-only">
            Suggested rules and the team policy are decided by an operator key; this key reads its own
            verdicts only.
          </p>
        </Section>
      )}
    </>
  );
}
