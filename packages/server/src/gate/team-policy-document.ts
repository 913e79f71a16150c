import { type TeamPolicy, teamPolicySha256 } from '@arbiter/tool-gate/team';
import type { TeamGateStore } from './team-gate-store.js';

/**
 * The team policy hooks fetch (`GET /v1/gate/policy`): the accepted rules and how much of the
 * `cwd` to report, named by `teamPolicySha256`, the hash the hooks check and put in every
 * verdict record. `updated_at` is when the accepted rules last changed (null: never).
 */
export async function teamPolicyDocument(
  store: TeamGateStore,
  reportCwd: TeamPolicy['report_cwd'],
): Promise<TeamPolicy> {
  const { rules, updatedMs } = await store.acceptedRules();
  const body = { version: 1 as const, allow: rules, report_cwd: reportCwd };
  return {
    ...body,
    sha256: teamPolicySha256(body),
    updated_at: updatedMs === null ? null : new Date(updatedMs).toISOString(),
  };
}
