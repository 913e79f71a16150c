import { KeyStore, migrations, openDatabase, resolveDataDir } from '@arbiter/server';
import type { Command } from 'commander';
import { formatTextTable } from './text-table.js';
import { EXIT_FAILURE, runCommand } from './usage-error.js';

interface DataDirOption {
  dataDir?: string;
}

function withKeyStore<T>(options: DataDirOption, use: (keys: KeyStore) => T): T {
  const db = openDatabase(resolveDataDir(options.dataDir), migrations);
  try {
    return use(new KeyStore(db));
  } finally {
    db.close();
  }
}

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
    .option(...dataDirOption)
    .action((options: DataDirOption & { principal?: string }) =>
      runCommand('keys create', async () => {
        const created = withKeyStore(options, (store) => store.create(options.principal));
        process.stdout.write(`${created.key}\n`);
        process.stderr.write(
          `created ${created.record.id} for principal ${created.record.principal.name}; the key is not shown again\n`,
        );
        return 0;
      }),
    );

  keys
    .command('list')
    .description('List keys (never the keys themselves: id, principal, last four characters, status)')
    .option('--json', 'print JSON')
    .option(...dataDirOption)
    .action((options: DataDirOption & { json?: boolean }) =>
      runCommand('keys list', async () => {
        const records = withKeyStore(options, (store) => store.list());
        if (options.json) {
          process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
          return 0;
        }
        const rows = records.map((record) => [
          record.id,
          record.principal.name,
          `…${record.hint}`,
          record.createdAt.toISOString(),
          record.revokedAt ? `revoked ${record.revokedAt.toISOString()}` : 'active',
        ]);
        process.stdout.write(formatTextTable(['id', 'principal', 'key', 'created', 'status'], rows));
        return 0;
      }),
    );

  keys
    .command('revoke')
    .description('Revoke a key by id; a running server refuses it from its next request')
    .argument('<id>', 'key id, as shown by `arbiter keys list`')
    .option(...dataDirOption)
    .action((id: string, options: DataDirOption) =>
      runCommand('keys revoke', async () => {
        const outcome = withKeyStore(options, (store) => store.revoke(id));
        if (outcome === 'not-found') {
          process.stderr.write(`arbiter keys revoke: no key with id ${id}\n`);
          return EXIT_FAILURE;
        }
        process.stdout.write(outcome === 'revoked' ? `revoked ${id}\n` : `${id} was already revoked\n`);
        return 0;
      }),
    );
}
