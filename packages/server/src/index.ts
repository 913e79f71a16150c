// What other packages use of the server (the CLI, the console's browser test, the benchmarks); the rest
// is the server's own. Add a name here when another package needs it, not before.

export { KEY_ROLES, type KeyRole, LOCAL_PRINCIPAL_NAME } from '@arbiter/auth';
export { SERVER_VERSION } from './app.js';
export type { ApiKeyRecord } from './auth/key-records.js';
export { KeyStore } from './auth/key-store.js';
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
export { type DatabaseSetting, resolveDatabaseSetting } from './storage/database-setting.js';
export { migrations } from './storage/migrations.js';
export { openStorage, type StorageOptions } from './storage/open-storage.js';
