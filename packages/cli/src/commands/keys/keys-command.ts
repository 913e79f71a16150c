import type { Command } from 'commander';
import { runCommand } from '../usage-error.js';
import type { DataDirOption } from './keys-action.js';

// The key store (and SQLite) load only when a keys command runs.
const action = () => import('./keys-action.js');

export function registerKeysCommand(program: Command): void {
  const keys = program
    .command('keys')
    .description(
      'Create, list and revoke API keys of a data directory (takes effect at once, also for a running server)',
    );
  const dataDirOption = [
    '--data-dir <dir>',
    'data directory (default: $ARBITER_DATA_DIR or ~/.arbiter)',
  ] as const;

  keys
    .command('create')
    .description(
      'Create a key and print it, alone, on stdout; for a new principal unless --principal names one',
    )
    .option('--principal <name>', 'the principal that owns the key (created when it does not exist)')
    .option('--operator', 'an operator key: may list principals and create and revoke keys over the API')
    .option(...dataDirOption)
    .action((options: DataDirOption & { principal?: string; operator?: boolean }) =>
      runCommand('keys create', async () => (await action()).createKey(options)),
    );

  keys
    .command('list')
    .description('List keys (never the keys themselves: id, principal, last four characters, status)')
    .option('--json', 'print JSON')
    .option(...dataDirOption)
    .action((options: DataDirOption & { json?: boolean }) =>
      runCommand('keys list', async () => (await action()).listKeys(options)),
    );

  keys
    .command('revoke')
    .description('Revoke a key by id; a running server refuses it from its next request')
    .argument('<id>', 'key id, as shown by `arbiter keys list`')
    .option(...dataDirOption)
    .action((id: string, options: DataDirOption) =>
      runCommand('keys revoke', async () => (await action()).revokeKey(id, options)),
    );
}
