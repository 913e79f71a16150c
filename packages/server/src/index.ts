export { type AppOptions, buildApp, SERVER_VERSION } from './app.js';
export { API_KEY_PREFIX, generateApiKey, hashApiKey } from './auth/api-key.js';
export { authMigrations } from './auth/auth-migrations.js';
export {
  type AuthenticationFailureRenderer,
  authenticate,
  authPlugin,
  requirePrincipal,
} from './auth/auth-plugin.js';
export {
  type AuthenticationFailureCode,
  type AuthenticationResult,
  type Authenticator,
  createKeyAuthenticator,
  createNoAuthAuthenticator,
} from './auth/authenticator.js';
export { type ApiKeyRecord, type CreatedApiKey, KeyStore } from './auth/key-store.js';
export { PostgresKeyStore } from './auth/postgres-key-store.js';
export { LOCAL_PRINCIPAL_NAME, type Principal } from './auth/principal.js';
export { billingMigrations } from './billing/billing-migrations.js';
export { formatAmount, parseAmount } from './billing/money.js';
export {
  type BudgetAccount,
  type BudgetPricing,
  type LedgerEntry,
  PrepaidBudgets,
  type Reservation,
  type Settlement,
} from './billing/prepaid-budgets.js';
export { resolveDataDir } from './config/data-dir.js';
export {
  loadServerConfig,
  type ServerConfig,
  ServerConfigError,
  serverConfigSchema,
} from './config/server-config.js';
export { DEFAULT_SERVER_LIMITS, type ServerLimits } from './decision/decision-limits.js';
export { ApiError, type ApiErrorType } from './errors/api-error.js';
export { ReadableLogStream } from './readable-log/readable-log-stream.js';
export { REQUEST_ID_HEADER } from './request-id.js';
export {
  DEFAULT_HOST,
  DEFAULT_PORT,
  type RunningServer,
  type StartServerOptions,
  startServer,
} from './server.js';
export { isPostgresUrl, redactConnectionString } from './storage/connection-string.js';
export { openDatabase } from './storage/database.js';
export { migrations } from './storage/migrations.js';
export { openStorage, type StorageOptions } from './storage/open-storage.js';
export { PostgresDatabase } from './storage/postgres-database.js';
export type { SqlDatabase, SqlDialect } from './storage/sql-database.js';
export { SqliteDatabase } from './storage/sqlite-database.js';
export {
  ACP_PRESETS,
  type AcpAgentDefinition,
  agentAvailable,
} from './uhp/runtime/acp/acp-agents.js';
export { AcpRuntime, type AcpRuntimeOptions } from './uhp/runtime/acp/acp-runtime.js';
export {
  type AgentBaseConfig,
  type AgentBaseConfigInput,
  agentBaseConfigSchema,
  createAgentRuntime,
} from './uhp/runtime/agent/agent-base-config.js';
export {
  PROVIDER_KINDS,
  type ProviderKind,
  type ProviderModelConfig,
  providerModelConfigSchema,
} from './uhp/runtime/agent/provider-model-config.js';
export type {
  HarnessRuntime,
  HarnessTurn,
  RuntimeEvent,
  RuntimeModel,
} from './uhp/runtime/harness-runtime.js';
export { HarnessRuntimeError } from './uhp/runtime/harness-runtime.js';
export { OFFLINE_MODEL_ID, OfflineAgentRuntime } from './uhp/runtime/offline/offline-runtime.js';
export { createInProcessGateClient } from './uhp/runtime/tool-gating/in-process-gate-client.js';
export {
  type GateAuditRecord,
  type GateContext,
  type GatedCall,
  type GateOutcome,
  ToolCallGate,
  type ToolGatingOptions,
} from './uhp/runtime/tool-gating/tool-call-gate.js';
export { toolGatingConfigSchema } from './uhp/runtime/tool-gating/tool-gating-config.js';
export {
  ProcessSandbox,
  type SandboxedProcess,
  type SandboxRunOptions,
  type SandboxRunResult,
  type SandboxSpawn,
  type SandboxState,
  SandboxUnavailableError,
} from './uhp/sandbox/process-sandbox.js';
export {
  type AgentSandboxInput,
  DEFAULT_AGENT_LIMITS,
  DEFAULT_COMMAND_LIMITS,
  type ProcessLimits,
  type SandboxConfig,
  type SandboxConfigInput,
  sandboxConfigSchema,
} from './uhp/sandbox/sandbox-config.js';
export { uhpMigrations } from './uhp/storage/uhp-migrations.js';
export {
  DEFAULT_TASK_LIMITS,
  LOCAL_PRINCIPAL,
  type UhpAuthenticator,
  type UhpPluginOptions,
  type UhpPrincipal,
  uhpPlugin,
} from './uhp/uhp-plugin.js';
