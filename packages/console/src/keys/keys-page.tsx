import { Section } from '../shared.js';

/**
 * Keys and budgets are operator actions on the data directory; the HTTP API has no route for
 * them, so the console says so and names the commands instead of pretending.
 */
export function KeysPage() {
  return (
    <Section title="Keys and budgets">
      <p role="status">
        <strong>Not available over the API.</strong> This server exposes no route to list principals, create
        or revoke keys, or read balances and the ledger, so the console cannot show them. The operator manages
        them on the server's machine:
      </p>
      <pre class="snippet">{`arbiter keys create --data-dir DIR            # a new principal and its key, shown once
arbiter keys create --principal NAME          # one more key for a principal
arbiter keys list                             # principals and key ids
arbiter keys revoke KEY_ID                    # refused from the next request on
arbiter billing show [PRINCIPAL]              # prepaid balances
arbiter billing ledger [PRINCIPAL]            # the ledger
arbiter billing credit PRINCIPAL AMOUNT       # add credit`}</pre>
      <p class="muted">See docs/user-guide.md (keys) and docs/configuration.md (budgets).</p>
    </Section>
  );
}
