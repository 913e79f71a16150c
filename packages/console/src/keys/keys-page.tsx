import { useEffect, useState } from 'preact/hooks';
import { api } from '../api-client.js';
import { ErrorNote, Section } from '../shared.js';
import { BudgetAdministration } from './budget-administration.js';
import { KeyAdministration } from './key-administration.js';
import { type LedgerEntry, LedgerTable } from './ledger-table.js';

interface Billing {
  account: { currency: string; balance: string; reserved: string; updated_at: number } | null;
  ledger: LedgerEntry[];
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
        <LedgerTable entries={billing.ledger} label="your ledger" rowTestId="ledger-entry" />
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
