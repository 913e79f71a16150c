import type { Command } from 'commander';

/** How a command names the server's database: the options of `arbiter serve` that select it. */
export interface DatabaseOptions {
  dataDir?: string;
  database?: string;
  config?: string;
}

/**
 * Adds `--data-dir`, `--database` and `--config` with the meaning they have for `arbiter serve`,
 * so a command reads and writes the database the server with the same options serves from. Kept
 * apart from the opener so that building the command line loads neither SQLite nor PostgreSQL.
 */
export function addDatabaseOptions(command: Command): Command {
  return command
    .option('--data-dir <dir>', 'data directory (default: $ARBITER_DATA_DIR or ~/.arbiter)')
    .option(
      '--database <url>',
      'PostgreSQL (postgres://…) instead of SQLite in the data directory; default: the configuration file, then $ARBITER_DATABASE_URL',
    )
    .option('--config <file>', "the server's configuration file (its `database` is used)");
}
