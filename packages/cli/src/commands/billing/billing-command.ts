import type { Command } from 'commander';
import { addDatabaseOptions } from '../server-database/database-options.js';
import { runReportingUsageErrors } from '../usage-error.js';
import type { BillingOptions } from './billing-action.js';

// SQLite or PostgreSQL, and the ledger, load only when a billing command runs.
const action = () => import('./billing-action.js');

export function registerBillingCommand(program: Command): void {
  const billing = program
    .command('billing')
    .description(
      "Prepaid budgets in the server's database (chosen as `arbiter serve` chooses it): credit a principal, show balances, read the ledger (principals without a balance are unmetered)",
    );

  billing
    .command('credit')
    .description('Add credit to a principal, opening its balance (and metering it) when it has none')
    .argument('<principal>', 'principal name or id (as in `arbiter keys list`; `local` for --no-auth)')
    .argument('<amount>', 'a positive decimal amount, e.g. 25 or 12.50')
    .option('--currency <code>', 'currency of a new balance (ISO 4217; default USD)')
    .option('--note <text>', 'a note recorded with the credit')
    .action(
      (principal: string, amount: string, options: BillingOptions & { currency?: string; note?: string }) =>
        runReportingUsageErrors('billing credit', async () =>
          (await action()).credit(principal, amount, options),
        ),
    );

  billing
    .command('show')
    .description('Show the balance and open reservations of one principal, or of every metered principal')
    .argument('[principal]', 'principal name or id')
    .option('--json', 'print JSON')
    .action((principal: string | undefined, options: BillingOptions & { json?: boolean }) =>
      runReportingUsageErrors('billing show', async () => (await action()).show(principal, options)),
    );

  billing
    .command('ledger')
    .description('List ledger entries (credits, reservations, settlements), oldest first')
    .argument('[principal]', 'principal name or id')
    .option('--limit <n>', 'at most this many of the newest entries', '100')
    .option('--json', 'print JSON')
    .action((principal: string | undefined, options: BillingOptions & { json?: boolean; limit: string }) =>
      runReportingUsageErrors('billing ledger', async () => (await action()).ledger(principal, options)),
    );

  // Every billing command reads the database `arbiter serve` with the same options would serve from.
  for (const command of billing.commands) addDatabaseOptions(command);
}
