// The subpath, not the package index: the index loads the AI SDK and its providers (about 0.25 s),
// which a server that validates its configuration but runs no provider model never needs.
import { PROVIDER_KINDS } from '@arbiter/ai-providers/provider-kind';
import { z } from 'zod';

export { PROVIDER_KINDS, type ProviderKind } from '@arbiter/ai-providers/provider-kind';

/**
 * One model of the `agent` base, configured by the operator (server configuration file). The key is
 * named by `apiKeyEnv`, never written in the configuration, and never given to tools. Its output price for prepaid budgets is set in the `billing` section by this id.
 */
export const providerModelConfigSchema = z.strictObject({
  /** The model id clients ask for (`model` of a task, `default_model` of a harness). */
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/, 'letters, digits and . _ : / - (at most 128)'),
  label: z.string().max(200).optional(),
  provider: z.enum(PROVIDER_KINDS),
  /** Required for `openai-compatible` (for example http://127.0.0.1:11434/v1 for Ollama). */
  baseURL: z.url().optional(),
  /** The model name the provider knows (`llama3.1:8b`, `gpt-4.1-mini`, `claude-sonnet-4-5`). */
  upstreamModel: z.string().min(1).max(200),
  /** Name of the environment variable holding the API key; omit for keyless local servers. */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
    .optional(),
});
export type ProviderModelConfig = z.infer<typeof providerModelConfigSchema>;

export const providerModelListSchema = z
  .array(providerModelConfigSchema)
  .max(200)
  .superRefine((models, context) => {
    const seen = new Set<string>();
    models.forEach((model, index) => {
      if (seen.has(model.id))
        context.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: `duplicate model id "${model.id}"`,
        });
      seen.add(model.id);
      if (model.provider === 'openai-compatible' && model.baseURL === undefined)
        context.addIssue({
          code: 'custom',
          path: [index, 'baseURL'],
          message: 'an openai-compatible model needs baseURL',
        });
    });
  });
