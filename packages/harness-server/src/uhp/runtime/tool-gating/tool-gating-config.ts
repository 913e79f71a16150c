import { z } from 'zod';

const probability = z.number().min(0).max(1).optional();
const rules = z.array(z.string().min(1).max(2_000)).max(1_000).optional();

/**
 * The `toolGating` section of the server configuration (`ToolGatingOptions`): static rules in
 * Claude Code syntax, whether an unattended run may proceed on an ASK, shadow mode, thresholds and
 * the branches the `git push` guard protects.
 */
export const toolGatingConfigSchema = z.strictObject({
  policy: z.strictObject({ allow: rules, ask: rules, deny: rules }).optional(),
  allowAsk: z.boolean().optional(),
  mode: z.enum(['enforce', 'shadow']).optional(),
  /** Overrides of the pack's thresholds; the gate checks the combination when it starts. */
  thresholds: z
    .strictObject({
      deny_noul: probability,
      allow_noul: probability,
      allow_risk_max: probability,
      allow_confidence: probability,
    })
    .optional(),
  protectedBranches: z.array(z.string().min(1).max(200)).max(100).optional(),
  /**
   * An OpenAI-compatible model asked about the calls the analysis does not fully understand
   * (docs/tool-gate.md, "A model's second opinion"); its key is read from `apiKeyEnv` per call.
   */
  secondOpinion: z
    .strictObject({
      baseURL: z.url({ protocol: /^https?$/ }),
      model: z.string().min(1).max(200),
      apiKeyEnv: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'apiKeyEnv must be an environment variable name')
        .optional(),
    })
    .optional(),
});
