import { useEffect, useState } from 'preact/hooks';
import { api } from '../api-client.js';
import { ErrorNote, Section } from '../shared.js';
import { deciderName, formatInstant } from './team-row-format.js';
import type { TeamPolicy, TeamSuggestion } from './team-types.js';

interface Loaded {
  suggestions: TeamSuggestion[];
  policy: TeamPolicy;
}

async function load(): Promise<Loaded> {
  const [suggestions, policy] = await Promise.all([
    api<{ data: TeamSuggestion[] }>('/v1/gate/suggestions'),
    api<TeamPolicy>('/v1/gate/policy'),
  ]);
  return { suggestions: suggestions.data, policy };
}

/**
 * Suggested rules, for an operator: kinds of call people were asked about again and again and
 * always approved. Accepting one adds it to the team policy the server serves to every hook
 * installed with `--server`; it can only turn an ASK into ALLOW, never a DENY.
 */
export function TeamSuggestions() {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  const refresh = () =>
    load().then(
      (next) => {
        setLoaded(next);
        setError(null);
      },
      (failure: unknown) => setError(failure),
    );
  useEffect(() => {
    void refresh();
  }, []);

  const decide = async (suggestion: TeamSuggestion, action: 'accept' | 'reject') => {
    setBusy(suggestion.id);
    setError(null);
    try {
      await api<TeamSuggestion>(`/v1/gate/suggestions/${encodeURIComponent(suggestion.id)}/${action}`, {
        method: 'POST',
        body: {},
      });
      setAnnouncement(`${action === 'accept' ? 'Accepted' : 'Rejected'} ${suggestion.rule}.`);
      await refresh();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };

  const open = loaded?.suggestions.filter((entry) => entry.status === 'suggested') ?? [];
  const decided = loaded?.suggestions.filter((entry) => entry.status !== 'suggested') ?? [];
  return (
    <Section title="Suggested rules">
      <p class="muted">
        A kind of call that was asked several times and approved every time. Accepting it adds the rule to the
        team policy below, which hooks installed with <code>--server</code> fetch: the call is then allowed
        without asking, unless the gate's analysis denies it (a team rule never overrides a DENY).
      </p>
      <ErrorNote error={error} />
      <p class="muted" aria-live="polite" data-testid="suggestion-announcement">
        {announcement}
      </p>
      {loaded === null && error === null ? <p class="muted">Loading suggestions…</p> : null}
      {loaded ? (
        open.length === 0 ? (
          <p class="muted" data-testid="no-suggestions">
            No suggestion waits for a decision.
          </p>
        ) : (
          <table aria-label="suggested rules">
            <thead>
              <tr>
                <th>Rule</th>
                <th>Asked</th>
                <th>Approved</th>
                <th>Examples</th>
                <th>Decision</th>
              </tr>
            </thead>
            <tbody>
              {open.map((suggestion) => (
                <tr key={suggestion.id} data-testid="suggestion" data-rule={suggestion.rule}>
                  <td>
                    <code>{suggestion.rule}</code>
                  </td>
                  <td>{suggestion.asked}</td>
                  <td>{suggestion.approved}</td>
                  <td>
                    <ul class="examples">
                      {suggestion.examples.map((example) => (
                        <li key={example}>
                          <code class="call">{example}</code>
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    <div class="row">
                      <button
                        type="button"
                        disabled={busy !== null}
                        aria-label={`Accept ${suggestion.rule}`}
                        onClick={() => decide(suggestion, 'accept')}
                      >
                        Accept
                      </button>
                      <button
                        type="button"
                        class="secondary"
                        disabled={busy !== null}
                        aria-label={`Reject ${suggestion.rule}`}
                        onClick={() => decide(suggestion, 'reject')}
                      >
                        Reject
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      {loaded ? (
        <div class="team-policy" data-testid="team-policy">
          <h3>Team policy</h3>
          <p>
            sha256 <code data-testid="team-policy-sha256">{loaded.policy.sha256}</code>
            {loaded.policy.updated_at ? (
              <span class="muted"> · updated {formatInstant(loaded.policy.updated_at)}</span>
            ) : null}
            <span class="muted">
              {' '}
              · records carry {loaded.policy.report_cwd === 'full' ? 'the whole cwd' : "the project's name"}
            </span>
          </p>
          {loaded.policy.allow.length === 0 ? (
            <p class="muted">No rule accepted yet: hooks judge with the analysis alone.</p>
          ) : (
            <ul data-testid="team-policy-rules">
              {loaded.policy.allow.map((rule) => (
                <li key={rule}>
                  <code>{rule}</code>
                </li>
              ))}
            </ul>
          )}
          {decided.length > 0 ? (
            <details>
              <summary>Decided suggestions ({decided.length})</summary>
              <ul>
                {decided.map((suggestion) => (
                  <li key={suggestion.id} data-testid="decided-suggestion">
                    <code>{suggestion.rule}</code> {suggestion.status} by {deciderName(suggestion.decided_by)}
                    {suggestion.decided_at ? `, ${formatInstant(suggestion.decided_at)}` : ''}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </div>
      ) : null}
    </Section>
  );
}
