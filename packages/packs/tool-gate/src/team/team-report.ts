import { z } from 'zod';

/**
 * The wire contract between a developer's hook and the server's team gate (issue 32,
 * docs/tool-gate.md "The gate for a team"). One module, imported by both sides, so the hook
 * cannot build a record the server would refuse and the server cannot expect a member the hook
 * never sends.
 *
 * What leaves the developer's machine is only what is below: the call's command, path or URL
 * after redaction, never the raw arguments; the `cwd` reduced to the project's name unless the
 * server's policy document says `report_cwd: "full"`.
 */

/** Every bound the server enforces on a report; the hook cuts its values to the same bounds. */
export const TEAM_REPORT_LIMITS = {
  /** Records in one `POST /v1/gate/reports`. */
  recordsPerRequest: 100,
  /** Characters of a redacted command line, path, URL or summary kept in a record. */
  commandChars: 4_000,
  pathChars: 1_024,
  urlChars: 2_048,
  summaryChars: 500,
  reasonChars: 1_000,
  /** Host, tool, program, session and model names. */
  nameChars: 200,
  /** A project name, or a whole `cwd` under `report_cwd: "full"`. */
  projectChars: 1_024,
  /** Characters of a record's `answers` as JSON (the six answers are a few hundred). */
  answersJsonChars: 16_384,
} as const;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hexadecimal digits');
const name = z.string().min(1).max(TEAM_REPORT_LIMITS.nameChars);
const verdictValue = z.enum(['ALLOW', 'DENY', 'ASK']);

/** The hosts whose hooks report; `acp` is the ACP gate, `other` anything else that speaks this contract. */
export const TEAM_REPORT_HOSTS = ['claude-code', 'gemini', 'codex', 'acp', 'other'] as const;
export type TeamReportHost = (typeof TEAM_REPORT_HOSTS)[number];

/**
 * The call as the team sees it, redacted on the developer's machine: the shell command line for
 * shell tools, the path for file tools, the URL for fetch tools, and a one-line summary for every
 * tool (the only member for tools with none of the three, such as MCP tools).
 */
export const teamCallSchema = z.strictObject({
  command: z.string().max(TEAM_REPORT_LIMITS.commandChars).optional(),
  path: z.string().max(TEAM_REPORT_LIMITS.pathChars).optional(),
  url: z.string().max(TEAM_REPORT_LIMITS.urlChars).optional(),
  summary: z.string().max(TEAM_REPORT_LIMITS.summaryChars),
});
export type TeamCall = z.infer<typeof teamCallSchema>;

/** Members both record kinds carry. `id` is made by the hook: the server stores each id once per principal, so a replayed queue never duplicates. */
const recordBase = {
  id: z.uuid(),
  /** When the hook judged or saw the call (the developer's clock). */
  time: z.iso.datetime({ offset: true }),
  host: z.enum(TEAM_REPORT_HOSTS),
  /** The host's session id; null when the host sends none. */
  session: name.nullable(),
  tool: name,
  /**
   * sha256 of the canonical JSON of `{tool, arguments}` as the host sent them, before redaction
   * (`teamCallKey`). A PostToolUse event of the same call has the same key, which is how an
   * outcome finds the verdict it answers.
   */
  call_key: sha256Hex,
};

/** One verdict of the gate, as a hook reports it after judging. */
export const teamVerdictRecordSchema = z.strictObject({
  kind: z.literal('verdict'),
  ...recordBase,
  /** The first program of a shell command (`npm`, `git`, `curl`), for filters and suggestions; null for other tools. */
  program: name.nullable(),
  call: teamCallSchema,
  /** The project's name (the last component of the `cwd`), the whole `cwd` where the policy allows, or null. */
  project: z.string().min(1).max(TEAM_REPORT_LIMITS.projectChars).nullable(),
  verdict: verdictValue.nullable(),
  effective: verdictValue.nullable(),
  rule: z.int().min(1).max(6).nullable(),
  /** `team` when an accepted team rule turned the analysis's ASK into ALLOW. */
  decided_by: z.enum(['gate', 'policy', 'team', 'none']),
  reason: z.string().max(TEAM_REPORT_LIMITS.reasonChars),
  /** The six answers as the verdict record holds them (numbers and choices; no call text). */
  answers: z
    .record(z.string(), z.unknown())
    .nullable()
    .refine(
      (answers) => answers === null || JSON.stringify(answers).length <= TEAM_REPORT_LIMITS.answersJsonChars,
      {
        message: `must be at most ${TEAM_REPORT_LIMITS.answersJsonChars} characters as JSON`,
      },
    ),
  pack: z.strictObject({ name, version: name, sha256: sha256Hex }),
  /** The hash of the verdict's judged state (`ToolGateVerdict.call_sha256`). */
  call_sha256: sha256Hex,
  /** The hash of the team policy the hook applied; null when it had none cached. */
  team_policy_sha256: sha256Hex.nullable(),
  model: name.nullable(),
});
export type TeamVerdictRecord = z.infer<typeof teamVerdictRecordSchema>;

/**
 * A call ran: the host's after-tool event (Claude Code `PostToolUse`, Gemini CLI `AfterTool`,
 * Codex `PostToolUse`). Against a verdict of ASK it means a person approved the call.
 */
export const teamOutcomeRecordSchema = z.strictObject({
  kind: z.literal('outcome'),
  ...recordBase,
  outcome: z.literal('ran'),
});
export type TeamOutcomeRecord = z.infer<typeof teamOutcomeRecordSchema>;

export const teamRecordSchema = z.discriminatedUnion('kind', [
  teamVerdictRecordSchema,
  teamOutcomeRecordSchema,
]);
export type TeamRecord = z.infer<typeof teamRecordSchema>;

/** `POST /v1/gate/reports`: records in the order the hook made them. */
export const teamReportBodySchema = z.strictObject({
  records: z.array(teamRecordSchema).min(1).max(TEAM_REPORT_LIMITS.recordsPerRequest),
});
export type TeamReportBody = z.infer<typeof teamReportBodySchema>;

/** The answer to a report: how many records were new, how many ids the server already had, and the head of the principal's chain. */
export const teamReportResponseSchema = z.strictObject({
  accepted: z.int().min(0),
  duplicates: z.int().min(0),
  head: sha256Hex,
});
export type TeamReportResponse = z.infer<typeof teamReportResponseSchema>;

/**
 * `GET /v1/gate/policy`: the rules an administrator accepted, in the syntax users write
 * (`Bash(npm run build:*)`). They can only turn the analysis's ASK into ALLOW, never a DENY
 * (docs/tool-gate.md). `sha256` is the canonical hash of `{version, allow, report_cwd}`; hooks
 * put it in every verdict record they send.
 */
export const teamPolicySchema = z.strictObject({
  version: z.literal(1),
  allow: z.array(z.string().min(1).max(TEAM_REPORT_LIMITS.commandChars)),
  /** How much of the `cwd` records carry: the project's name (default) or the whole path. */
  report_cwd: z.enum(['project', 'full']),
  sha256: sha256Hex,
  updated_at: z.iso.datetime({ offset: true }).nullable(),
});
export type TeamPolicy = z.infer<typeof teamPolicySchema>;
