import { z } from 'zod';

const temperatureSchema = z.strictObject({
  /** Divides the log-probabilities before renormalising; > 1 softens, < 1 sharpens. */
  temperature: z.number().positive().max(100),
});

export const llmCalibrationSchema = z.strictObject({
  noul: temperatureSchema.optional(),
  choice: temperatureSchema.optional(),
  score: temperatureSchema.optional(),
});
export type LlmCalibration = z.infer<typeof llmCalibrationSchema>;

/**
 * How the engine reads probabilities from the server:
 * - `top`: standard `top_logprobs` (≤ 20); choices with more options use the hierarchical scheme;
 * - `token-ids`: the server accepts `allowed_token_ids` and `top_logprobs` up to the label count (vLLM with
 *   `--max-logprobs`), so a choice of up to 255 options is read in one call (labels checked via `/tokenize`);
 * - `none`: the server exposes no logprobs; the verbalised structured-output fallback is used;
 * - `auto`: `top`, falling back to verbalised when the server returns no logprobs or no valid label.
 */
export const logprobsModeSchema = z.enum(['auto', 'top', 'token-ids', 'none']);
export type LogprobsMode = z.infer<typeof logprobsModeSchema>;

/**
 * Request members that turn reasoning off so the first output token is the label. Servers reject
 * members they do not know (OpenAI answers 400 to `chat_template_kwargs`), so this is opt-in.
 */
export const disableThinkingSchema = z.enum(['none', 'chat-template-kwargs', 'reasoning-effort']);

/** A catalog entry of kind `openai-compatible`. The API key itself is never part of configuration. */
export const openAICompatibleEngineConfigSchema = z.strictObject({
  kind: z.literal('openai-compatible'),
  /** Base URL of the OpenAI-compatible API, including its version path, e.g. `http://127.0.0.1:8000/v1`. */
  baseURL: z.url({ protocol: /^https?$/ }),
  /** The upstream model name sent as `model`. */
  model: z.string().min(1),
  /** Name of the environment variable holding the key; read at request time, never logged. */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'apiKeyEnv must be an environment variable name')
    .optional(),
  /** Most chat completions in flight at once for this engine, across all requests. */
  concurrency: z.number().int().min(1).max(1024).default(8),
  /**
   * Budget of one `evaluate` call, retries included. The default stays under the decision client's 5 s
   * budget, so a slow model server is reported as a 504 the client sees rather than a client timeout.
   */
  timeoutMs: z.number().int().min(1).max(600_000).default(4_000),
  /** Retries of one completion after 429, 5xx, network errors. */
  maxRetries: z.number().int().min(0).max(10).default(2),
  /** Free-form descriptive labels for operators (e.g. `{ "family": "qwen3" }`); never sent upstream. */
  labels: z.record(z.string(), z.string()).optional(),
  logprobs: logprobsModeSchema.default('auto'),
  disableThinking: disableThinkingSchema.default('none'),
  calibration: llmCalibrationSchema.optional(),
  /** Send the shared prefix once before the questions so the server's prefix cache holds it. */
  warmup: z.boolean().default(false),
});
export type OpenAICompatibleEngineConfig = z.infer<typeof openAICompatibleEngineConfigSchema>;
export type OpenAICompatibleEngineConfigInput = z.input<typeof openAICompatibleEngineConfigSchema>;
