import { z } from 'zod';
import { OfflineAgentRuntime } from '../offline/offline-runtime.js';
import type { HarnessToolGate } from '../tool-gating/harness-tool-gate.js';
import type { AgentRuntime } from './agent-runtime.js';
import { providerModelListSchema } from './provider-model-config.js';

const MOVED =
  'moved: the sandbox of every task program is the top-level `sandbox` section (docs/security.md)';

/**
 * The `agent` section of the server configuration: its provider models and the model new harnesses
 * start with. Its shell runs in the server's process sandbox (the top-level `sandbox` section).
 */
export const agentBaseConfigSchema = z.strictObject({
  models: providerModelListSchema.default([]),
  defaultModel: z.string().optional(),
  // Refused with a pointer rather than silently ignored: `sandbox: off` once meant no isolation.
  sandbox: z.never(MOVED).optional(),
  sandboxNetwork: z.never(MOVED).optional(),
});
export type AgentBaseConfig = z.infer<typeof agentBaseConfigSchema>;
export type AgentBaseConfigInput = z.input<typeof agentBaseConfigSchema>;

/** The `agent` base for a configuration: the offline model plus the configured providers, all behind `gate`. */
export async function createAgentRuntime(
  input: AgentBaseConfigInput,
  gate: HarnessToolGate,
  options: { offlineChunkDelayMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<AgentRuntime> {
  const config = agentBaseConfigSchema.parse(input);
  const known = config.models.map((model) => model.id);
  if (
    config.defaultModel !== undefined &&
    config.defaultModel !== 'arbiter-offline' &&
    !known.includes(config.defaultModel)
  )
    throw new TypeError(
      `agent.defaultModel "${config.defaultModel}" is not one of the configured models (${known.join(', ') || 'none'})`,
    );
  // The AI SDK, its providers and the MCP client load only for a server that configures the agent
  // base: they were most of `arbiter serve`'s start-up (bench/decision-startup.mjs).
  const { AgentRuntime } = await import('./agent-runtime.js');
  return new AgentRuntime({
    offline: new OfflineAgentRuntime({ chunkDelayMs: options.offlineChunkDelayMs ?? 80, gate }),
    models: config.models,
    gate,
    ...(config.defaultModel === undefined ? {} : { defaultModel: config.defaultModel }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
}
