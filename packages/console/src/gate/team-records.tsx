import { recordedCall } from './call-summary.js';
import { formatInstant, lateReceipt, outcomeWords, shortHash } from './team-row-format.js';
import type { TeamRecordRow } from './team-types.js';

/** The team's verdicts, newest first, one row a judged call: the call as recorded and what became of it. */
export function TeamRecordTable({ rows }: { rows: readonly TeamRecordRow[] }) {
  return (
    <table aria-label="team verdicts" class="team-records">
      <thead>
        <tr>
          <th>Time</th>
          <th>Principal</th>
          <th>Host</th>
          <th>Project</th>
          <th>Tool</th>
          <th>Call</th>
          <th>Verdict</th>
          <th>Outcome</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const call = recordedCall(row.record.call);
          const record = row.record;
          return (
            <tr
              key={row.seq}
              data-testid="team-row"
              data-principal={row.principal.name}
              data-outcome={row.outcome}
            >
              <td>
                <time dateTime={record.time}>{formatInstant(record.time)}</time>
                {lateReceipt(row) ? (
                  <span class="muted subline">received {formatInstant(row.received_at)}</span>
                ) : null}
              </td>
              <td>{row.principal.name}</td>
              <td>{record.host}</td>
              <td>{record.project ?? '—'}</td>
              <td>{record.tool}</td>
              <td>
                <code class="call" data-testid="team-call" data-kind={call.kind} title={record.call.summary}>
                  {call.text}
                </code>
              </td>
              <td>
                <span class={`verdict small ${record.effective ?? 'NONE'}`} data-testid="team-verdict">
                  {record.effective ?? '—'}
                </span>
                <span class="muted subline">
                  {record.decided_by === 'team' ? 'team rule' : `by ${record.decided_by}`}
                  {record.rule !== null ? `, rule ${record.rule}` : ''}
                </span>
                {record.team_policy_sha256 ? (
                  <span class="muted subline" title={record.team_policy_sha256}>
                    policy {shortHash(record.team_policy_sha256)}
                  </span>
                ) : null}
              </td>
              <td>
                <span class={`outcome ${row.outcome}`} data-testid="team-outcome">
                  {outcomeWords(row.outcome)}
                </span>
                {row.outcome_at ? <span class="muted subline">{formatInstant(row.outcome_at)}</span> : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
