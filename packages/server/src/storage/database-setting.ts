/** Where a server's settings may name its database, strongest first. */
export interface DatabaseSetting {
  /** `--database` on the command line, or `StartServerOptions.database`. */
  readonly database?: string | undefined;
  /** The configuration file's `database`. */
  readonly configured?: string | undefined;
}

/**
 * The database a server with these settings stores in: the command line, then the configuration
 * file, then `$ARBITER_DATABASE_URL`; undefined means SQLite in the data directory. One function
 * for `arbiter serve` and every command that opens the server's database (`arbiter keys`,
 * `arbiter billing`), so an operator's settings select the same database whichever command reads
 * them — a key created on one database and served from another would be a silent failure.
 */
export function resolveDatabaseSetting(
  setting: DatabaseSetting,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  // An empty variable is unset: `ARBITER_DATABASE_URL= arbiter serve` means SQLite, as in a shell.
  return setting.database ?? setting.configured ?? (env.ARBITER_DATABASE_URL || undefined);
}
