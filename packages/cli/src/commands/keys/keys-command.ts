import type { Command } from 'commander';
import { addDatabaseOptions, type DatabaseOptions } from '../server-database/database-options.js';
import { runReportingUsageErrors } from '../usage-error.js';

// The key store (and SQLite or PostgreSQL) load only when a keys command runs.
const action = () => import('./keys-action.js');

export function registerKeysCommand(program: Command): void {
  const keys = program
    .command('keys')
    .description(
      "Create, list and revoke API keys in the server's database, chosen as `arbiter serve` chooses it (takes effect at once, also for running servers)",
    );

  keys
    .command('create')
    .description(
      'Create a key and print it, alone, on stdout; for a new principal unless --principal names one',
    )
    .option('--principal <name>', 'the principal that owns the key (created when it does not exist)')
    .option('--operator', 'an operator key: may list principals and create and revoke keys over the API')
    .option(
      '--role <role>',
      'operator, member (default) or reporter: a reporter key may only send gate verdict records and read the team gate policy',
    )
    .action((options: DatabaseOptions & { principal?: string; operator?: boolean; role?: string }) =>
      runReportingUsageErrors('keys create', async () => (await action()).createKey(options)),
    );

  keys
    .command('list')
    .description('List keys (never the keys themselves: id, principal, last four characters, status)')
    .option('--json', 'print JSON')
    .action((options: DatabaseOptions & { json?: boolean }) =>
      runReportingUsageErrors('keys list', async () => (await action()).listKeys(options)),
    );

  keys
    .command('revoke')
    .description('Revoke a key by id; a running server refuses it from its next request')
    .argument('<id>', 'key id, as shown by `arbiter keys list`')
    .action((id: string, options: DatabaseOptions) =>
      runReportingUsageErrors('keys revoke', async () => (await action()).revokeKey(id, options)),
    );

  // Every keys command reads the database `arbiter serve` with the same options would serve from.
  for (const command of keys.commands) addDatabaseOptions(command);
}
