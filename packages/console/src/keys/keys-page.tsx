import { useEffect, useState } from 'preact/hooks';
import { api } from '../api-client.js';
import { ErrorNote, Section } from '../shared.js';

interface Billing {
  account: { currency: string; balance: string; reserved: string; updated_at: number } | null;
  ledger: {
    id: number;
    kind: 'credit' | 'reserve' | 'settle';
    amount: string;
    balance: string;
    response_id: string | null;
    note: string | null;
    created_at: number;
  }[];
}

/** The caller's own prepaid budget and ledger (`GET /api/harness/v1/billing`). */
function OwnBudget() {
  const [billing, setBilling] = useState<Billing | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api<Billing>('/api/harness/v1/billing').then(setBilling, setError);
  }, []);
  return (
    <Section title="Your prepaid budget">
      <ErrorNote error={error} />
      {billing ? (
        billing.account ? (
          <p data-testid="balance">
            Balance <strong>{billing.account.balance}</strong> {billing.account.currency}, of which{' '}
            {billing.account.reserved} reserved by running tasks.
          </p>
        ) : (
          <p data-testid="balance">No budget: your harness tasks are not metered.</p>
        )
      ) : null}
      {billing && billing.ledger.length > 0 ? (
        <table>
          <thead>
            <tr>
              <th>Time</th>
              <th>Kind</th>
              <th>Amount</th>
              <th>Balance</th>
              <th>Task or note</th>
            </tr>
          </thead>
          <tbody>
            {billing.ledger.map((entry) => (
              <tr key={entry.id} data-testid="ledger-entry">
                <td>{new Date(entry.created_at).toLocaleString()}</td>
                <td>{entry.kind}</td>
                <td>{entry.amount}</td>
                <td>{entry.balance}</td>
                <td>
                  {entry.response_id ? <code class="id">{entry.response_id}</code> : (entry.note ?? '')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Section>
  );
}

/**
 * Keys are operator actions on the data directory; the HTTP API has no route for them, so the
 * console says so and names the commands instead of pretending. A principal's own budget is read
 * over the API.
 */
export function KeysPage() {
  return (
    <div class="columns">
      <Section title="Keys and principals">
        <p role="status">
          <strong>Not available over the API.</strong> This server exposes no route to list principals or to
          create or revoke keys, so the console cannot manage them. The operator does, on the server's
          machine:
        </p>
        <pre class="snippet">{`arbiter keys create --data-dir DIR            # a new principal and its key, shown once
arbiter keys create --principal NAME          # one more key for a principal
arbiter keys list                             # principals and key ids
arbiter keys revoke KEY_ID                    # refused from the next request on
arbiter billing credit PRINCIPAL AMOUNT       # add prepaid credit
arbiter billing show | ledger [PRINCIPAL]     # every account`}</pre>
        <p class="muted">See docs/user-guide.md (keys) and docs/harnesses.md (budgets).</p>
      </Section>
      <OwnBudget />
    </div>
  );
}
