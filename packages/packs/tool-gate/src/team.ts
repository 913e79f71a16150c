/**
 * The `@arbiter/tool-gate/team` entry: the wire contract between hooks and the server's team gate
 * (records, outcomes, the served policy), light enough for the server to import without the pack.
 */
export { AUDIT_GENESIS, type AuditEntry } from './audit/audit-log.js';
export { canonicalSha256 } from './pack/canonical-sha256.js';
export { teamCallKey } from './team/team-call-key.js';
export { teamPolicySha256 } from './team/team-policy-hash.js';
export {
  TEAM_REPORT_HOSTS,
  TEAM_REPORT_LIMITS,
  type TeamCall,
  type TeamOutcomeRecord,
  type TeamPolicy,
  type TeamRecord,
  type TeamReportBody,
  type TeamReportHost,
  type TeamReportResponse,
  type TeamVerdictRecord,
  teamCallSchema,
  teamOutcomeRecordSchema,
  teamPolicySchema,
  teamRecordSchema,
  teamReportBodySchema,
  teamReportResponseSchema,
  teamVerdictRecordSchema,
} from './team/team-report.js';
