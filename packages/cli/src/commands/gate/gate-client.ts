import type { ToolGateDecisionClient, ToolGateThresholds } from '@arbiter/tool-gate';

export interface GateClientOptions {
  /** A running Arbiter server; without it the built-in engine answers in this process. */
  readonly url?: string;
  readonly model?: string;
  readonly budgetMs?: number;
  /** The thresholds the gate composes with; the in-process analysis draws its disposition by them. */
  readonly thresholds: ToolGateThresholds;
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
  const [{ createInProcessGateClient }, { createToolGateAnalyser }] = await Promise.all([
    import('@arbiter/engine/builtin'),
    import('@arbiter/tool-gate-analysis'),
  ]);
  return createInProcessGateClient({ analyser: createToolGateAnalyser(options.thresholds), ...budget });
}
