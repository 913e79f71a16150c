// What other packages use of the harness server: the plugin the server mounts, its options and what
// they take (harness bases, the tool gate, the sandbox), the configuration schemas the
// server's configuration file embeds, the migrations, the prepaid budgets the CLI's `billing`
// commands keep and the ledger entry's body the server's admin API shows. The rest is the harness
// server's own. Add a name here when another package needs it.
export { billingConfigSchema } from './billing/billing-config.js';
export { billingMigrations } from './billing/billing-migrations.js';
export { ledgerEntryBody } from './billing/ledger-entry-body.js';
export { formatAmount, NANOS_PER_UNIT, parseAmount } from './billing/money.js';
export {
  type BudgetAccount,
  type BudgetPricing,
  type LedgerEntry,
  PrepaidBudgets,
} from './billing/prepaid-budgets.js';
export { type ArtifactLimits, DEFAULT_ARTIFACT_LIMITS } from './uhp/artifact-collection.js';
export { acpConfigSchema } from './uhp/runtime/acp/acp-config.js';
export { AcpRuntime } from './uhp/runtime/acp/acp-runtime.js';
export { agentBaseConfigSchema } from './uhp/runtime/agent/agent-base-config.js';
export type { HarnessRuntime, HarnessTurn, RuntimeEvent } from './uhp/runtime/harness-runtime.js';
export { OfflineAgentRuntime } from './uhp/runtime/offline/offline-runtime.js';
export { type GateAuditRecord, HarnessToolGate } from './uhp/runtime/tool-gating/harness-tool-gate.js';
export { secondOpinionEngine } from './uhp/runtime/tool-gating/second-opinion-engine.js';
export { toolGatingConfigSchema } from './uhp/runtime/tool-gating/tool-gating-config.js';
export { ProcessSandbox } from './uhp/sandbox/process-sandbox.js';
export { DEFAULT_USER_RANGE, sandboxConfigSchema } from './uhp/sandbox/sandbox-config.js';
export { uhpMigrations } from './uhp/storage/uhp-migrations.js';
export { type ClusterOptions, type UhpPluginOptions, uhpPlugin } from './uhp/uhp-plugin.js';
