import { errorBodySchema } from '@arbiter/decision';
import { TEAM_REPORT_HOSTS, TEAM_REPORT_LIMITS, teamVerdictRecordSchema } from '@arbiter/tool-gate/team';
import { z } from 'zod';
import { TEAM_OUTCOMES } from './team-record-outcome.js';

/** Rows per page of `GET /v1/gate/records`: the default and the most one request may ask for. */
export const TEAM_RECORDS_PAGE = { default: 50, max: 500 } as const;

const nameParam = z.string().min(1).max(TEAM_REPORT_LIMITS.nameChars);
const instantParam = z.iso.datetime({
  offset: true,
  message: 'must be an ISO 8601 date and time with a zone (2026-11-28T09:00:00Z)',
});
const principalParam = z
  .string()
  .min(1)
  .max(100)
  .describe('a principal id; a member key may name only its own');
const filterShape = {
  principal: principalParam.optional(),
  host: z.enum(TEAM_REPORT_HOSTS).optional(),
  verdict: z.enum(['ALLOW', 'DENY', 'ASK']).optional().describe('the effective verdict'),
  tool: nameParam.optional(),
  program: nameParam.optional(),
  since: instantParam.optional().describe('received at or after'),
  until: instantParam.optional().describe('received before'),
};

/** `GET /v1/gate/stats`'s query. */
export const statsQuerySchema = z.strictObject(filterShape);
export type TeamFilterQuery = z.infer<typeof statsQuerySchema>;

/** `GET /v1/gate/records`'s query: the filters and the page. */
export const recordsQuerySchema = z.strictObject({
  ...filterShape,
  limit: z
    .string()
    .regex(/^\d{1,6}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.int().min(1).max(TEAM_RECORDS_PAGE.max))
    .optional()
    .describe(`rows per page, 1 to ${TEAM_RECORDS_PAGE.max}; default ${TEAM_RECORDS_PAGE.default}`),
  after: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, 'must be the next_after of the previous page')
    .transform(Number)
    .optional()
    .describe("the previous page's next_after"),
});

export const verifyQuerySchema = z.strictObject({ principal: principalParam.optional() });
export const suggestionParamsSchema = z.object({ id: z.string().describe('a suggestion id, sug_…') });

const principalSchema = z.object({ id: z.string(), name: z.string() });

/** The answers, for `/openapi.json`: the routes build them, so they are documentation, not checks. */
export const teamRecordPageSchema = z.object({
  data: z.array(
    z.object({
      seq: z.int().describe("the entry's place in its principal's chain"),
      principal: principalSchema,
      received_at: z.string().describe('ISO 8601, the server clock'),
      record: teamVerdictRecordSchema,
      outcome: z.enum(TEAM_OUTCOMES),
      outcome_at: z.string().nullable().describe('when the server received the "it ran" outcome'),
    }),
  ),
  has_more: z.boolean(),
  next_after: z.string().nullable().describe('the cursor of the next (older) page; null on the last'),
});

export const teamStatsSchema = z.object({
  per_day: z.array(z.object({ day: z.string(), ALLOW: z.int(), DENY: z.int(), ASK: z.int() })),
  asked_programs: z.array(
    z.object({ program: z.string(), asked: z.int(), approved: z.int(), declined: z.int() }),
  ),
  approval: z.object({
    asked: z.int(),
    approved: z.int(),
    declined: z.int(),
    pending: z.int(),
    rate: z.number().nullable().describe('approved ÷ (approved + declined); null when neither happened'),
  }),
});

export const teamVerificationSchema = z.union([
  z.object({ ok: z.literal(true), entries: z.int(), head: z.string() }),
  z.object({ ok: z.literal(false), entries: z.int(), seq: z.int(), problem: z.string() }),
]);

export const teamSuggestionSchema = z.object({
  id: z.string(),
  rule: z.string().describe('Claude Code permission syntax: Bash(npm run build:*), WebFetch(domain:…)'),
  tool: z.string(),
  asked: z.int(),
  approved: z.int(),
  examples: z.array(z.string()).describe('up to 3 recent calls, as the hooks redacted them'),
  status: z.enum(['suggested', 'accepted', 'rejected']),
  decided_at: z.string().nullable(),
  decided_by: principalSchema.nullable(),
});

export const teamErrorAnswers = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
