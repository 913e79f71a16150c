import { z } from 'zod';

/**
 * `toolGating.team` of the server configuration (docs/configuration.md): when a kind of call
 * becomes a suggested rule, when an ASK nobody ran counts as declined, and how much of the `cwd`
 * hooks report (served to them as `report_cwd` in the team policy).
 */
export const teamGateConfigSchema = z.strictObject({
  /** Approvals (across principals, none declined) before a kind of call is suggested as a rule. */
  suggestAfter: z.int().min(1).max(1_000).default(3),
  /** An ASK with no "it ran" outcome this long after the server received it is declined. */
  declineAfterSeconds: z
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .default(3600),
  /** `project`: records carry the `cwd`'s last component; `full`: the whole path. */
  reportCwd: z.enum(['project', 'full']).default('project'),
});
export type TeamGateConfig = z.infer<typeof teamGateConfigSchema>;

export const DEFAULT_TEAM_GATE_CONFIG: TeamGateConfig = teamGateConfigSchema.parse({});
