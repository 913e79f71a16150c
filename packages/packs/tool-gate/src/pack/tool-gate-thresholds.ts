import { z } from 'zod';

const probability = z.number().min(0).max(1);

/**
 * The four thresholds of the tool-gate pack. They are part of the pack, so part of its hash:
 * two deployments that decide differently never share a hash.
 */
export const toolGateThresholdsSchema = z
  .object({
    /** A risk answer (destructive, exfil_risk) at or above this denies (rule 2). */
    deny_noul: probability.default(0.7),
    /** in_grant, args_plausible and on_task must reach this for an ALLOW (rule 4). */
    allow_noul: probability.default(0.8),
    /** destructive and exfil_risk must stay strictly below this for an ALLOW (rule 4). */
    allow_risk_max: probability.default(0.2),
    /** The disposition's confidence needed to act on `allow` or `deny` (rules 3 and 4). */
    allow_confidence: probability.default(0.75),
  })
  .strict()
  .refine((thresholds) => thresholds.allow_risk_max < thresholds.deny_noul, {
    message: 'allow_risk_max must be below deny_noul, or one call could be both allowed and denied',
    path: ['allow_risk_max'],
  });

export type ToolGateThresholds = z.infer<typeof toolGateThresholdsSchema>;
export type ToolGateThresholdsInput = z.input<typeof toolGateThresholdsSchema>;

export const DEFAULT_TOOL_GATE_THRESHOLDS: ToolGateThresholds = Object.freeze(
  toolGateThresholdsSchema.parse({}),
);

/**
 * The thresholds a deployment decides by: `overrides` over `base` (the pack's defaults unless
 * given), checked as one combination. The gate's composition and the engine's analysis both take
 * their thresholds from here, so an operator's override reaches both.
 *
 * @example
 * resolveToolGateThresholds({ deny_noul: 0.6 }); // {deny_noul: 0.6, allow_noul: 0.8, …}
 */
export function resolveToolGateThresholds(
  overrides: ToolGateThresholdsInput = {},
  base: ToolGateThresholds = DEFAULT_TOOL_GATE_THRESHOLDS,
): ToolGateThresholds {
  const parsed = toolGateThresholdsSchema.safeParse({ ...base, ...overrides });
  if (!parsed.success) throw new TypeError(`invalid tool-gate thresholds: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
