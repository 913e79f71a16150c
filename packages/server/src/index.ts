export type {
  HarnessRuntime,
  HarnessTurn,
  RuntimeEvent,
  RuntimeModel,
} from './uhp/runtime/harness-runtime.js';
export { HarnessRuntimeError } from './uhp/runtime/harness-runtime.js';
export { OFFLINE_MODEL_ID, OfflineAgentRuntime } from './uhp/runtime/offline/offline-runtime.js';
export { uhpMigrations } from './uhp/storage/uhp-migrations.js';
export {
  DEFAULT_TASK_LIMITS,
  LOCAL_PRINCIPAL,
  type UhpAuthenticator,
  type UhpPluginOptions,
  type UhpPrincipal,
  uhpPlugin,
} from './uhp/uhp-plugin.js';
