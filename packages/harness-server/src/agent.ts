/**
 * `@arbiter/harness-server/agent`: the `agent` harness base for embedding (its loop over a model provider,
 * the provider models). Not part of the package index, which `arbiter serve`
 * loads: these modules bring the AI SDK and the MCP client, which a server loads only when its
 * configuration has an `agent` section.
 */
export {
  AgentRuntime,
  type AgentRuntimeOptions,
  DEFAULT_MAX_AGENT_STEPS,
} from './uhp/runtime/agent/agent-runtime.js';
export { ProviderModel, type ReachabilityProbeOptions } from './uhp/runtime/agent/provider-model.js';
