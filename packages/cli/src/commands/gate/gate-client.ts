import type { ToolGateDecisionClient, ToolGateThresholds } from '@arbiter/tool-gate';

export interface GateClientOptions {
  /** A running Arbiter server; without it the built-in engine answers in this process. */
  readonly url?: string;
  readonly model?: string;
  readonly budgetMs?: number;
  /** The thresholds the gate composes with; the in-process analysis draws its disposition by them. */
  readonly thresholds: ToolGateThresholds;
  /** Where the second opinion's settings are read (`process.env` by default). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The environment that names a model for the gate's second opinion (docs/tool-gate.md). */
export const SECOND_OPINION_URL = 'ARBITER_GATE_SECOND_OPINION_URL';
export const SECOND_OPINION_MODEL = 'ARBITER_GATE_SECOND_OPINION_MODEL';
export const SECOND_OPINION_API_KEY = 'ARBITER_GATE_SECOND_OPINION_API_KEY';

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
  const secondOpinion = await secondOpinionFrom(options.env ?? process.env);
  return createInProcessGateClient({
    analyser: createToolGateAnalyser(
      options.thresholds,
      secondOpinion === undefined ? {} : { secondOpinion },
    ),
    ...budget,
  });
}

/**
 * An OpenAI-compatible model asked about the calls the analysis does not fully understand, when
 * the environment names one (both the URL and the model; one without the other is a mistake the
 * user hears about, not a gate that silently judges without it). Its key, if it needs one, is
 * read from `ARBITER_GATE_SECOND_OPINION_API_KEY` at each call and never stored.
 */
async function secondOpinionFrom(env: Readonly<Record<string, string | undefined>>) {
  const url = env[SECOND_OPINION_URL];
  const model = env[SECOND_OPINION_MODEL];
  if (url === undefined && model === undefined) return undefined;
  if (url === undefined || model === undefined)
    throw new Error(
      `${url === undefined ? SECOND_OPINION_URL : SECOND_OPINION_MODEL} is not set: the gate's second opinion needs both ${SECOND_OPINION_URL} and ${SECOND_OPINION_MODEL}`,
    );
  const { createOpenAICompatibleEngine } = await import('@arbiter/engine');
  const engine = createOpenAICompatibleEngine(
    {
      kind: 'openai-compatible',
      baseURL: url,
      model,
      // A local model server needs no key; one named in the environment is sent.
      ...(env[SECOND_OPINION_API_KEY] === undefined ? {} : { apiKeyEnv: SECOND_OPINION_API_KEY }),
    },
    { env },
  );
  return { engine, name: model };
}
