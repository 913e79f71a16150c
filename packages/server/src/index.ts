// What other packages use of the server (the CLI, the UHP client's tests, the benchmarks); the rest
// is the server's own. Add a name here when another package needs it, not before.
export { SERVER_VERSION } from './app.js';
export { authenticate, authPlugin } from './auth/auth-plugin.js';
export { createKeyAuthenticator, createNoAuthAuthenticator } from './auth/authenticator.js';
export { type ApiKeyRecord, KeyStore } from './auth/key-store.js';
export { type AnyKeyStore, closeKeyStore, openKeyStore } from './auth/open-key-store.js';
export { PostgresKeyStore } from './auth/postgres-key-store.js';
export { LOCAL_PRINCIPAL_NAME } from './auth/principal.js';
export { formatAmount, parseAmount } from './billing/money.js';
export { PrepaidBudgets } from './billing/prepaid-budgets.js';
export { resolveDataDir } from './config/data-dir.js';
export { loadServerConfig, type ServerConfig, ServerConfigError } from './config/server-config.js';
export { ReadableLogStream } from './readable-log/readable-log-stream.js';
export { servedPackAnalysers } from './served-pack-analysers.js';
export {
  DEFAULT_HOST,
  DEFAULT_PORT,
  type RunningServer,
  type StartServerOptions,
  startServer,
} from './server.js';
export { isPostgresUrl, redactConnectionString } from './storage/connection-string.js';
export { DATABASE_FILE_NAME, openDatabase } from './storage/database.js';
export { type DatabaseSetting, resolveDatabaseSetting } from './storage/database-setting.js';
export { migrations } from './storage/migrations.js';
export { openStorage, type StorageOptions } from './storage/open-storage.js';
export { PostgresDatabase } from './storage/postgres-database.js';
export type { SqlDatabase, SqlDialect } from './storage/sql-database.js';
export { SqliteDatabase } from './storage/sqlite-database.js';
export { HarnessToolGate } from './uhp/runtime/tool-gating/harness-tool-gate.js';
export { uhpMigrations } from './uhp/storage/uhp-migrations.js';
export { type UhpPluginOptions, uhpPlugin } from './uhp/uhp-plugin.js';
