/** One ledger entry as both ledger routes return it; only the operator's route names who credited. */
export interface LedgerEntry {
  id: number;
  kind: 'credit' | 'reserve' | 'settle';
  amount: string;
  balance: string;
  response_id: string | null;
  note: string | null;
  /** Milliseconds or an ISO time: the caller's route and the operator's route differ here. */
  created_at: number | string;
  credited_by?: { id: string; name: string } | null;
}

/**
 * A ledger as a table, for the caller's own budget and for any principal's on the operator's page.
 * `showCreditor` adds the "Credited by" column that only the operator's route can fill.
 */
export function LedgerTable({
  entries,
  label,
  rowTestId,
  showCreditor = false,
}: {
  entries: readonly LedgerEntry[];
  label: string;
  rowTestId: string;
  showCreditor?: boolean;
}) {
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          <th>Time</th>
          <th>Kind</th>
          <th>Amount</th>
          <th>Balance</th>
          <th>Task or note</th>
          {showCreditor ? <th>Credited by</th> : null}
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id} data-testid={rowTestId}>
            <td>{new Date(entry.created_at).toLocaleString()}</td>
            <td>{entry.kind}</td>
            <td>{entry.amount}</td>
            <td>{entry.balance}</td>
            <td>
              {entry.response_id ? <code class="id">{entry.response_id}</code> : null}
              {entry.response_id && entry.note ? ' ' : null}
              {entry.note ?? ''}
            </td>
            {showCreditor ? <td>{entry.credited_by?.name ?? ''}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
