import type { ToolGateDecisionClient } from '@arbiter/tool-gate';

export interface GateClientOptions {
  /** A running Arbiter server; without it the built-in engine answers in this process. */
  readonly url?: string;
  readonly model?: string;
  readonly budgetMs?: number;
}

/**
 * The decision client behind `arbiter gate`. Imports are lazy: the hook runs on every tool call
 * of the host, so only the pieces one invocation needs are loaded.
 */
export async function createGateClient(options: GateClientOptions): Promise<ToolGateDecisionClient> {
  const { DecisionClient, createHttpTransport } = await import('@arbiter/decision');
  const budget = options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs };
  if (options.url !== undefined) {
    // Secrets in the call are redacted before they leave the machine (the client's default).
    return new DecisionClient({
      transport: createHttpTransport({ baseURL: options.url }),
      ...budget,
      ...(options.model === undefined ? {} : { model: options.model }),
    });
  }
  const { createInProcessGateClient } = await import('@arbiter/engine/builtin');
  return createInProcessGateClient(budget);
}
