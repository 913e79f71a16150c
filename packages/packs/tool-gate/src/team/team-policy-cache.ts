import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '@arbiter/atomic-file';
import { teamPolicySha256 } from './team-policy-hash.js';
import { type TeamPolicy, teamPolicySchema } from './team-report.js';

/** The cached policy's file in the reporting directory (`$ARBITER_HOME/gate-reports/policy.json`). */
export function teamPolicyCachePath(directory: string): string {
  return join(directory, 'policy.json');
}

/** Why a served or cached policy cannot be used; null when it can. */
export function teamPolicyProblem(value: unknown): string | null {
  const parsed = teamPolicySchema.safeParse(value);
  if (!parsed.success)
    return `not a team policy: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`;
  const expected = teamPolicySha256(parsed.data);
  if (parsed.data.sha256 !== expected)
    return `its sha256 ${parsed.data.sha256} is not the hash of its rules (${expected})`;
  return null;
}

/**
 * The team policy the flusher last fetched, or null when there is none or it cannot be trusted
 * (unreadable, not the schema, a hash that does not match its rules): a hook then judges with no
 * team rules, which can only ask more, never allow more.
 */
export function readCachedTeamPolicy(directory: string): TeamPolicy | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(teamPolicyCachePath(directory), 'utf8'));
  } catch {
    return null;
  }
  return teamPolicyProblem(value) === null ? (value as TeamPolicy) : null;
}

/** Stores a policy the server served (after `teamPolicyProblem` found nothing wrong), atomically. */
export function writeCachedTeamPolicy(directory: string, policy: TeamPolicy): void {
  const problem = teamPolicyProblem(policy);
  if (problem !== null) throw new Error(`refusing to cache the team policy: ${problem}`);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(teamPolicyCachePath(directory), `${JSON.stringify(policy, null, 2)}\n`, {
    mode: 0o600,
  });
}
