import { useEffect, useState } from 'preact/hooks';
import { api } from '../api-client.js';
import { ErrorNote, Section } from '../shared.js';
import { BudgetAdministration } from './budget-administration.js';
import { KeyAdministration } from './key-administration.js';

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
            {/* The balance is what can still be reserved: running tasks' reservations are already out of it. */}
            Balance <strong>{billing.account.balance}</strong> {billing.account.currency} available;{' '}
            {billing.account.reserved} {billing.account.currency} more held for running tasks.
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
 * Keys and budgets: principals, keys and every principal's budget for an operator key (the page asks
 * the API, which decides), the role explained for a member key, and the caller's own budget for both.
 */
export function KeysPage() {
  return (
    <KeyAdministration
      aside={<OwnBudget />}
      operatorSection={(principalCount) => <BudgetAdministration principalCount={principalCount} />}
    />
  );
}
