import { useEffect, useState } from 'preact/hooks';
import { api } from '../api-client.js';
import { ErrorNote, Section } from '../shared.js';
import { summarizeCall } from './call-summary.js';
import { type FieldOption, FilterField } from './filter-field.js';

const VERDICTS: readonly FieldOption[] = [
  { value: '', label: 'any' },
  ...['ALLOW', 'DENY', 'ASK'].map((value) => ({ value })),
];

interface AuditEntry {
  seq: number;
  time: string;
  session_id: string;
  response_id: string;
  call_id: string;
  tool: string;
  effective: 'ALLOW' | 'DENY' | 'ASK' | null;
  rule: number | null;
  decided_by: string;
  reason: string;
}

interface AuditPage {
  entries: AuditEntry[];
  chain: { intact: boolean };
}

interface ResponseOutput {
  output: { type: string; call_id?: string; arguments?: string }[];
}

/**
 * The calls the entries judged, by call id: the audit log keeps each call's digest, not its text,
 * so the text comes from the tool calls of the responses the entries name (the caller's own).
 * A response that cannot be read leaves its calls unnamed; the verdicts still show.
 */
async function callsOf(entries: readonly AuditEntry[]): Promise<Map<string, string>> {
  const calls = new Map<string, string>();
  const responses = [...new Set(entries.map((entry) => entry.response_id))];
  await Promise.all(
    responses.map(async (id) => {
      try {
        const response = await api<ResponseOutput>(`/api/harness/v1/responses/${encodeURIComponent(id)}`);
        for (const item of response.output)
          if (item.type === 'function_call' && item.call_id && typeof item.arguments === 'string')
            calls.set(item.call_id, summarizeCall(item.arguments));
      } catch {
        // Deleted or unreadable: nothing to show for its calls.
      }
    }),
  );
  return calls;
}

/** The gate's verdicts on the caller's harness runs (`GET /api/harness/v1/gate/audit`), filtered. */
export function AuditLogBrowser() {
  const [verdict, setVerdict] = useState('');
  const [tool, setTool] = useState('');
  const [since, setSince] = useState('');
  const [page, setPage] = useState<AuditPage | null>(null);
  const [calls, setCalls] = useState<Map<string, string>>(new Map());
  const [error, setError] = useState<unknown>(null);

  const load = async (event?: Event) => {
    event?.preventDefault();
    setError(null);
    const query = new URLSearchParams();
    if (verdict) query.set('verdict', verdict);
    if (tool.trim()) query.set('tool', tool.trim());
    if (since) query.set('since', new Date(since).toISOString());
    try {
      const loaded = await api<AuditPage>(`/api/harness/v1/gate/audit?${query}`);
      setPage(loaded);
      setCalls(await callsOf(loaded.entries));
    } catch (failure) {
      setPage(null);
      setError(failure);
    }
  };
  // The newest verdicts are listed when the page opens; the filters narrow them.
  useEffect(() => {
    void load();
  }, []);

  return (
    <Section title="Audit log of your harness runs">
      <form class="row" onSubmit={load} aria-label="audit filters">
        <FilterField
          label="Verdict"
          name="audit-verdict"
          value={verdict}
          onValue={setVerdict}
          options={VERDICTS}
        />
        <FilterField label="Tool" name="audit-tool" value={tool} onValue={setTool} />
        <FilterField label="Since" type="datetime-local" value={since} onValue={setSince} />
        <button type="submit">Filter</button>
      </form>
      <ErrorNote error={error} />
      {page ? (
        <>
          <p data-testid="audit-chain" class={page.chain.intact ? 'muted' : 'error'}>
            {page.chain.intact
              ? 'Hash chain verified: the log has not been edited, reordered or cut in the middle.'
              : 'The hash chain does NOT verify: the log was edited. The operator can locate the break with `arbiter gate log --verify`.'}
          </p>
          {page.entries.length === 0 ? <p class="muted">No verdicts match.</p> : null}
          <table>
            <thead>
              <tr>
                <th>Time</th>
                <th>Tool</th>
                <th>Call</th>
                <th>Verdict</th>
                <th>Rule</th>
                <th>Reason</th>
                <th>Session</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((entry) => (
                <tr key={entry.seq} data-testid="audit-entry">
                  <td>{new Date(entry.time).toLocaleString()}</td>
                  <td>{entry.tool}</td>
                  <td>
                    <code class="call" data-testid="audit-call">
                      {calls.get(entry.call_id) ?? '—'}
                    </code>
                  </td>
                  <td>
                    <span class={`verdict small ${entry.effective ?? 'NONE'}`}>{entry.effective ?? '—'}</span>
                  </td>
                  <td>{entry.rule ?? '—'}</td>
                  <td>{entry.reason}</td>
                  <td>
                    <code class="id">{entry.session_id}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </Section>
  );
}
