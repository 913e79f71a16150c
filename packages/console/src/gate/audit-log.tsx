import { useState } from 'preact/hooks';
import { api } from '../api-client.js';
import { ErrorNote, Section } from '../shared.js';

interface AuditEntry {
  seq: number;
  time: string;
  session_id: string;
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

/** The gate's verdicts on the caller's harness runs (`GET /api/harness/v1/gate/audit`), filtered. */
export function AuditLogBrowser() {
  const [verdict, setVerdict] = useState('');
  const [tool, setTool] = useState('');
  const [since, setSince] = useState('');
  const [page, setPage] = useState<AuditPage | null>(null);
  const [error, setError] = useState<unknown>(null);

  const load = async (event: Event) => {
    event.preventDefault();
    setError(null);
    const query = new URLSearchParams();
    if (verdict) query.set('verdict', verdict);
    if (tool.trim()) query.set('tool', tool.trim());
    if (since) query.set('since', new Date(since).toISOString());
    try {
      setPage(await api<AuditPage>(`/api/harness/v1/gate/audit?${query}`));
    } catch (failure) {
      setPage(null);
      setError(failure);
    }
  };

  return (
    <Section title="Audit log of your harness runs">
      <form class="row" onSubmit={load} aria-label="audit filters">
        <label>
          Verdict
          <select name="audit-verdict" value={verdict} onChange={(e) => setVerdict(e.currentTarget.value)}>
            <option value="">any</option>
            <option value="ALLOW">ALLOW</option>
            <option value="DENY">DENY</option>
            <option value="ASK">ASK</option>
          </select>
        </label>
        <label>
          Tool
          <input name="audit-tool" value={tool} onInput={(e) => setTool(e.currentTarget.value)} />
        </label>
        <label>
          Since
          <input type="datetime-local" value={since} onInput={(e) => setSince(e.currentTarget.value)} />
        </label>
        <button type="submit">Show</button>
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
