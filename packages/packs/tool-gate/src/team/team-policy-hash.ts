import { canonicalSha256 } from '../pack/canonical-sha256.js';
import type { TeamPolicy } from './team-report.js';

/**
 * The hash a team policy is named by (`TeamPolicy.sha256`, its ETag, and `team_policy_sha256` in
 * every verdict record): sha256 of the canonical JSON of `{version, allow, report_cwd}`. One
 * function for the server that serves the policy and the hook that checks what it cached.
 */
export function teamPolicySha256(policy: Pick<TeamPolicy, 'version' | 'allow' | 'report_cwd'>): string {
  return canonicalSha256({ version: policy.version, allow: policy.allow, report_cwd: policy.report_cwd });
}
