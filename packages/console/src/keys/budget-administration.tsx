import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api-client.js';
import { ErrorNote, Section } from '../shared.js';
import { type LedgerEntry, LedgerTable } from './ledger-table.js';

const BUDGETS_API = '/v1/admin/budgets';
/** Ledger entries a page shows; the API allows up to 200. */
const PAGE_SIZE = 20;

interface PrincipalRef {
  id: string;
  name: string;
}

interface Account {
  currency: string;
  balance: string;
  reserved: string;
  updated_at: string;
}

interface Budget {
  principal: PrincipalRef;
  account: Account | null;
}

interface LedgerPage {
  entries: LedgerEntry[];
  has_more: boolean;
  next_before: number | null;
}

/**
 * An Idempotency-Key for one intended credit: kept while the operator retries it (a lost answer,
 * a second click), replaced once the credit is made. `getRandomValues`, unlike `randomUUID`, is
 * there on a plain-HTTP page that is not localhost too.
 */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `console-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

function CreditForm({ budget, onCredited }: { budget: Budget; onCredited: () => void }) {
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const idempotencyKey = useRef(newIdempotencyKey());
  return (
    <form
      aria-label="credit a budget"
      onSubmit={async (event) => {
        event.preventDefault();
        setError(null);
        setDone('');
        setBusy(true);
        try {
          const credited = await api<{ entry: LedgerEntry; account: Account }>(
            `${BUDGETS_API}/${encodeURIComponent(budget.principal.id)}/credits`,
            {
              // The amount goes as typed: the API parses and refuses it in its own words.
              body: { amount: amount.trim(), ...(note.trim() ? { note: note.trim() } : {}) },
              headers: { 'idempotency-key': idempotencyKey.current },
            },
          );
          idempotencyKey.current = newIdempotencyKey();
          setAmount('');
          setNote('');
          setDone(
            `Credited ${credited.entry.amount} ${credited.account.currency}: the balance is ${credited.account.balance} ${credited.account.currency}.`,
          );
          onCredited();
        } catch (failure) {
          setError(failure);
        } finally {
          setBusy(false);
        }
      }}
    >
      <div class="row">
        <label>
          Amount{budget.account ? ` (${budget.account.currency})` : ''}
          <input
            name="credit-amount"
            inputMode="decimal"
            placeholder="12.50"
            value={amount}
            onInput={(e) => setAmount(e.currentTarget.value)}
          />
        </label>
        <label>
          Note
          <input
            name="credit-note"
            placeholder="optional, kept in the ledger"
            value={note}
            onInput={(e) => setNote(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={busy}>
          Credit {budget.principal.name}
        </button>
      </div>
      <p class="muted" role="status" data-testid="credit-done">
        {done}
      </p>
      <ErrorNote error={error} />
    </form>
  );
}

/** One principal's ledger, newest first, a page at a time (`before` cursors kept to go back). */
function Ledger({ principal, version }: { principal: PrincipalRef; version: number }) {
  const [cursors, setCursors] = useState<(number | null)[]>([null]);
  const [page, setPage] = useState<LedgerPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const before = cursors.at(-1) ?? null;
  // A new principal or a new credit starts again at the newest entries.
  useEffect(() => {
    setCursors([null]);
  }, [principal.id, version]);
  useEffect(() => {
    // Only the answer to the latest question is drawn, whichever arrives last.
    let current = true;
    setError(null);
    const query = `limit=${PAGE_SIZE}${before === null ? '' : `&before=${before}`}`;
    api<LedgerPage>(`${BUDGETS_API}/${encodeURIComponent(principal.id)}/ledger?${query}`).then(
      (answer) => {
        if (current) setPage(answer);
      },
      (failure) => {
        if (!current) return;
        setPage(null);
        setError(failure);
      },
    );
    return () => {
      current = false;
    };
  }, [principal.id, before, version]);
  return (
    <>
      <ErrorNote error={error} />
      {page && page.entries.length === 0 ? <p class="muted">No ledger entries yet.</p> : null}
      {page && page.entries.length > 0 ? (
        <LedgerTable
          entries={page.entries}
          label={`ledger of ${principal.name}`}
          rowTestId="admin-ledger-entry"
          showCreditor
        />
      ) : null}
      <div class="row">
        <button
          type="button"
          class="secondary"
          disabled={cursors.length <= 1}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Newer entries
        </button>
        <button
          type="button"
          class="secondary"
          disabled={!page?.has_more}
          onClick={() => page?.next_before && setCursors([...cursors, page.next_before])}
        >
          Older entries
        </button>
        <span class="muted" data-testid="ledger-page">
          Page {cursors.length}
        </span>
      </div>
    </>
  );
}

/**
 * Every principal's prepaid budget over the operator routes (`/v1/admin/budgets…`): balances and
 * reservations, one principal's ledger, and crediting it. Shown only to an operator key.
 */
export function BudgetAdministration({ principalCount }: { principalCount: number }) {
  const [budgets, setBudgets] = useState<Budget[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  // A key made for a new principal adds a row; a credit changes one.
  useEffect(() => {
    api<{ budgets: Budget[] }>(BUDGETS_API).then((answer) => {
      setError(null);
      setBudgets(answer.budgets);
    }, setError);
  }, [principalCount, version]);
  const chosen = budgets?.find((budget) => budget.principal.id === selected) ?? null;
  return (
    <Section title="Budgets">
      <p class="muted">
        Prepaid balances of every principal. A principal never credited is not metered; the first credit opens
        its account in the server's currency. Each credit is kept in the ledger with the operator who made it.
      </p>
      <ErrorNote error={error} />
      {budgets ? (
        <table aria-label="budgets">
          <thead>
            <tr>
              <th>Principal</th>
              <th>Balance</th>
              <th>Reserved</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {budgets.map((budget) => (
              <tr key={budget.principal.id} data-testid="budget-row" data-principal={budget.principal.name}>
                <td>
                  {budget.principal.name}{' '}
                  {budget.principal.name !== budget.principal.id ? (
                    <code class="id">{budget.principal.id}</code>
                  ) : null}
                </td>
                <td data-testid="budget-balance">
                  {budget.account ? `${budget.account.balance} ${budget.account.currency}` : 'not metered'}
                </td>
                <td>{budget.account ? `${budget.account.reserved} ${budget.account.currency}` : ''}</td>
                <td>
                  <button
                    type="button"
                    class="secondary"
                    aria-pressed={selected === budget.principal.id}
                    onClick={() => setSelected(budget.principal.id)}
                  >
                    Ledger of {budget.principal.name}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {chosen ? (
        <section
          class="budget-detail"
          aria-label={`budget of ${chosen.principal.name}`}
          data-testid="selected-budget"
        >
          <h3>{chosen.principal.name}</h3>
          <p data-testid="selected-balance">
            {chosen.account
              ? `Balance ${chosen.account.balance} ${chosen.account.currency} available; ${chosen.account.reserved} ${chosen.account.currency} more held for running tasks.`
              : 'Not metered: no credit yet.'}
          </p>
          <CreditForm budget={chosen} onCredited={() => setVersion(version + 1)} />
          <Ledger principal={chosen.principal} version={version} />
        </section>
      ) : null}
    </Section>
  );
}
