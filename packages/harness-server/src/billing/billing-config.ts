import { z } from 'zod';

/** The `billing` section of the configuration file: prices of prepaid budgets (docs/harnesses.md). */
export const billingConfigSchema = z.strictObject({
  /** ISO 4217 code of new balances and of the prices. Default USD. */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'a three-letter ISO 4217 code')
    .optional(),
  /** Output price per million tokens, by model id; an unpriced model costs nothing. */
  outputPricePerMillionTokens: z.record(z.string(), z.number().min(0).max(1_000_000)).optional(),
  /** The cap (and reservation) of a metered task without max_output_tokens. Default 4096. */
  defaultMaxOutputTokens: z.number().int().min(1).max(10_000_000).optional(),
});
