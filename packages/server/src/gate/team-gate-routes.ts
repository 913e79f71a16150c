import { type KeyRole, requirePrincipal } from '@arbiter/auth';
import { errorBodySchema } from '@arbiter/decision';
import {
  TEAM_REPORT_LIMITS,
  type TeamReportResponse,
  teamPolicySchema,
  teamReportBodySchema,
  teamReportResponseSchema,
} from '@arbiter/tool-gate/team';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type core, z } from 'zod';
import { renderAuthenticationFailure } from '../decision/decision-routes.js';
import { formatIssuePath } from '../decision/issue-path.js';
import { limitRequestsPerPrincipal } from '../decision/principal-rate-limit.js';
import { ApiError } from '../errors/api-error.js';
import { DEFAULT_TEAM_GATE_CONFIG, type TeamGateConfig } from './team-gate-config.js';
import {
  recordsQuerySchema,
  statsQuerySchema,
  suggestionParamsSchema,
  TEAM_RECORDS_PAGE,
  type TeamFilterQuery,
  teamErrorAnswers,
  teamRecordPageSchema,
  teamStatsSchema,
  teamSuggestionSchema,
  teamVerificationSchema,
  verifyQuerySchema,
} from './team-gate-schemas.js';
import type { OutcomeJudgement, TeamGateStore, TeamRecordFilter } from './team-gate-store.js';
import { teamPolicyDocument } from './team-policy-document.js';
import { listTeamSuggestions, type TeamSuggestion } from './team-suggestions.js';

export interface TeamGateRoutesOptions {
  readonly store: TeamGateStore;
  /** `toolGating.team` of the configuration; defaults for what it leaves out. */
  readonly config?: Partial<TeamGateConfig> | undefined;
  /** The clock records are stamped and outcomes judged by; injected by tests. */
  readonly now?: (() => Date) | undefined;
  /** `limits.requestsPerMinute`: each principal's requests to these routes per minute; null, none. */
  readonly requestsPerMinute?: number | null | undefined;
}

/**
 * A report's body may be this large: 100 records at their limits, written with every character
 * escaped, are about 8 MB. The app's default body limit (1 MiB) holds about 100 typical records.
 */
export const TEAM_REPORT_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/** The hook's key sends and reads the policy; nothing else is open to a reporter key. */
const REPORTING_ROLES: readonly KeyRole[] = ['reporter', 'member', 'operator'];
const OPERATOR_ONLY: readonly KeyRole[] = ['operator'];

/**
 * The team gate (issue 32, docs/api.md "The team gate"): hooks report verdict and outcome records
 * into their principal's hash-chained log and read the team policy; members read their own rows
 * and stats; operators read everyone's and accept or reject suggested rules. Authenticated like
 * the Decision API; each route names the key roles it admits (`config.roles`).
 */
export async function teamGateRoutes(app: FastifyInstance, options: TeamGateRoutesOptions): Promise<void> {
  const { store } = options;
  const config: TeamGateConfig = { ...DEFAULT_TEAM_GATE_CONFIG, ...options.config };
  const now = options.now ?? (() => new Date());
  const judgement = (): OutcomeJudgement => ({
    nowMs: now().getTime(),
    declineAfterMs: config.declineAfterSeconds * 1000,
  });
  app.removeContentTypeParser('text/plain');
  // The schemas below document the routes in /openapi.json; each handler parses its own input, so
  // a refusal can name the record, the member and the limit in this route's words.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.addHook('onRequest', requirePrincipal(renderAuthenticationFailure));
  const perMinute = options.requestsPerMinute ?? null;
  // As the Decision API's (a hook's flusher keeps what was refused queued and sends it later).
  if (perMinute !== null) await limitRequestsPerPrincipal(app, perMinute, 'team gate requests');
  const doc = (operationId: string, summary: string, parts: Record<string, unknown>) => ({
    operationId,
    summary,
    tags: ['gate'],
    security: [{ bearerAuth: [] }],
    ...parts,
  });

  app.post(
    '/v1/gate/reports',
    {
      config: { roles: REPORTING_ROLES },
      bodyLimit: TEAM_REPORT_BODY_LIMIT_BYTES,
      schema: doc(
        'reportGateRecords',
        "Append a hook's verdict and outcome records to its principal's audit log",
        {
          body: teamReportBodySchema,
          response: { 200: teamReportResponseSchema, ...teamErrorAnswers },
        },
      ),
    },
    async (request): Promise<TeamReportResponse> => {
      const parsed = teamReportBodySchema.safeParse(request.body);
      if (!parsed.success) throw invalidReport(parsed.error.issues);
      const nul = findNul(parsed.data.records, ['records']);
      if (nul !== null)
        throw invalidRequest(
          `${nul}: contains a NUL character (U+0000), which the server does not store; the hook redacts or drops it`,
          nul,
        );
      return store.append(principalOf(request).id, parsed.data.records, now());
    },
  );

  app.get(
    '/v1/gate/policy',
    {
      config: { roles: REPORTING_ROLES },
      schema: doc(
        'getGatePolicy',
        'The team policy: accepted allow rules and how much of the cwd to report',
        {
          response: { 200: teamPolicySchema, ...teamErrorAnswers },
        },
      ),
    },
    async (request, reply) => {
      const policy = await teamPolicyDocument(store, config.reportCwd);
      reply.header('etag', `"${policy.sha256}"`).header('cache-control', 'no-cache');
      if (ifNoneMatchHits(request.headers['if-none-match'], policy.sha256)) return reply.code(304).send();
      return policy;
    },
  );

  app.get(
    '/v1/gate/audit/verify',
    {
      schema: doc('verifyGateAudit', "Verify a principal's hash-chained team gate log", {
        querystring: verifyQuerySchema,
        response: { 200: teamVerificationSchema, ...teamErrorAnswers },
      }),
    },
    async (request) => {
      const query = parseQuery(verifyQuerySchema, request.query);
      const own = principalOf(request).id;
      const principalId = query.principal ?? own;
      if (principalId !== own && request.role !== 'operator') throw notYours(request, principalId);
      return store.verify(principalId);
    },
  );

  app.get(
    '/v1/gate/records',
    {
      schema: doc('listGateRecords', 'Verdict records with their outcomes, newest first', {
        querystring: recordsQuerySchema,
        response: { 200: teamRecordPageSchema, ...teamErrorAnswers },
      }),
    },
    async (request) => {
      const query = parseQuery(recordsQuerySchema, request.query);
      return store.records(
        filterOf(request, query),
        { limit: query.limit ?? TEAM_RECORDS_PAGE.default, afterId: query.after },
        judgement(),
      );
    },
  );

  app.get(
    '/v1/gate/stats',
    {
      schema: doc('getGateStats', 'Verdicts per day, the most asked programs and the approval rate', {
        querystring: statsQuerySchema,
        response: { 200: teamStatsSchema, ...teamErrorAnswers },
      }),
    },
    async (request) =>
      store.stats(filterOf(request, parseQuery(statsQuerySchema, request.query)), judgement()),
  );

  app.get(
    '/v1/gate/suggestions',
    {
      config: { roles: OPERATOR_ONLY },
      schema: doc('listGateSuggestions', 'Rules suggested from calls people approved (operator keys only)', {
        response: { 200: z.object({ data: z.array(teamSuggestionSchema) }), ...teamErrorAnswers },
      }),
    },
    async () => ({ data: await listTeamSuggestions(store, config.suggestAfter, judgement()) }),
  );

  for (const [action, status] of [
    ['accept', 'accepted'],
    ['reject', 'rejected'],
  ] as const) {
    app.post(
      `/v1/gate/suggestions/:id/${action}`,
      {
        config: { roles: OPERATOR_ONLY },
        schema: doc(
          `${action}GateSuggestion`,
          status === 'accepted'
            ? 'Accept a suggested rule: it joins the served team policy (operator keys only)'
            : 'Reject a suggested rule, or withdraw an accepted one from the team policy (operator keys only)',
          {
            params: suggestionParamsSchema,
            response: { 200: teamSuggestionSchema, 404: errorBodySchema, ...teamErrorAnswers },
          },
        ),
      },
      async (request) => {
        // No body, or `{}`: a decision has no options, and a member sent anyway would be ignored.
        const body = request.body;
        if (
          body !== undefined &&
          body !== null &&
          (typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length > 0)
        )
          throw invalidRequest(`this route takes no body, or {}; the decision is the path's ${action}`, null);
        const { id } = suggestionParamsSchema.parse(request.params);
        const found = await findSuggestion(id);
        await store.decide(id, found.rule, status, principalOf(request), now());
        return findSuggestion(id);
      },
    );
  }

  async function findSuggestion(id: string): Promise<TeamSuggestion> {
    const found = (await listTeamSuggestions(store, config.suggestAfter, judgement())).find(
      (suggestion) => suggestion.id === id,
    );
    if (found) return found;
    throw ApiError.of(
      'not_found',
      `no suggestion with id ${id}: a kind of call becomes a suggestion once it was approved ${config.suggestAfter} times and never declined (GET /v1/gate/suggestions lists them)`,
      { param: 'id' },
    );
  }

  /**
   * Whose rows a read covers: an operator's, everyone's unless it names a principal; anyone
   * else's, its own, and naming another principal is refused rather than answered empty.
   */
  function filterOf(request: FastifyRequest, query: TeamFilterQuery): TeamRecordFilter {
    const own = principalOf(request).id;
    let principalId: string | undefined = query.principal;
    if (request.role !== 'operator') {
      if (principalId !== undefined && principalId !== own) throw notYours(request, principalId);
      principalId = own;
    }
    const sinceMs = query.since === undefined ? undefined : Date.parse(query.since);
    const untilMs = query.until === undefined ? undefined : Date.parse(query.until);
    if (sinceMs !== undefined && untilMs !== undefined && sinceMs > untilMs)
      throw invalidRequest('since: must not be after until', 'since');
    return {
      principalId,
      host: query.host,
      verdict: query.verdict,
      tool: query.tool,
      program: query.program,
      sinceMs,
      untilMs,
    };
  }
}

/** `If-None-Match` holds the policy's hash: as its ETag (`"…"`, `W/"…"`), bare, in a list, or `*`. */
function ifNoneMatchHits(header: string | undefined, sha256: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((tag) =>
      tag
        .trim()
        .replace(/^W\//, '')
        .replace(/^"(.*)"$/, '$1'),
    )
    .some((tag) => tag === sha256 || tag === '*');
}

function principalOf(request: FastifyRequest) {
  if (request.principal === null) throw new Error('the team gate routes run after requirePrincipal');
  return request.principal;
}

function notYours(request: FastifyRequest, principalId: string): ApiError {
  return ApiError.of(
    'insufficient_scope',
    `a ${request.role} key reads only its own principal's team gate records (${principalOf(request).id}); reading ${principalId}'s needs an operator key`,
    { param: 'principal' },
  );
}

function invalidRequest(message: string, param: string | null): ApiError {
  return ApiError.of('invalid_request', message, { param });
}

function parseQuery<T extends z.ZodType>(schema: T, query: unknown): z.infer<T> {
  const nul = findNul(query, []);
  if (nul !== null) throw invalidRequest(`${nul}: contains a NUL character (U+0000)`, nul);
  const parsed = schema.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys')
    throw invalidRequest(
      `unknown query parameter ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; this route reads ${Object.keys(
        (schema as unknown as z.ZodObject).shape,
      ).join(', ')}`,
      issue.keys[0] ?? null,
    );
  const param = issue ? formatIssuePath(issue.path) : null;
  throw invalidRequest(`${param || 'query'}: ${issue?.message ?? 'invalid'}`, param);
}

/** The first problem of a report, in words that name the record, the member and the limit. */
function invalidReport(issues: readonly core.$ZodIssue[]): ApiError {
  const issue = issues[0];
  const param = issue ? formatIssuePath(issue.path) : null;
  if (issue === undefined) return invalidRequest('the body must be {records: [...]}', null);
  if (issue.path.length === 0)
    return invalidRequest(
      issue.code === 'unrecognized_keys'
        ? `unknown member ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; the body is {records: [...]}`
        : 'the body must be a JSON object {records: [...]}',
      null,
    );
  if (param === 'records' && issue.code === 'too_big')
    return invalidRequest(
      `records: at most ${TEAM_REPORT_LIMITS.recordsPerRequest} records per request (TEAM_REPORT_LIMITS.recordsPerRequest); send the rest in another request`,
      param,
    );
  if (param === 'records' && issue.code === 'too_small')
    return invalidRequest('records: send at least one record', param);
  if (issue.code === 'too_big' && issue.origin === 'string')
    return invalidRequest(`${param}: at most ${issue.maximum} characters`, param);
  if (issue.code === 'too_small' && issue.origin === 'string')
    return invalidRequest(`${param}: must not be empty`, param);
  if (issue.code === 'unrecognized_keys')
    return invalidRequest(
      `${param}: unknown member ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`,
      param,
    );
  if (issue.code === 'invalid_union') {
    const kind = issue.path.at(-1) === 'kind' ? param : `${param}.kind`;
    return invalidRequest(`${kind}: must be "verdict" or "outcome"`, kind);
  }
  return invalidRequest(`${param}: ${issue.message}`, param);
}

/** The path of the first string holding U+0000, which PostgreSQL cannot store in text. */
function findNul(value: unknown, path: (string | number)[]): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? formatIssuePath(path) : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, [...path, index]);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return formatIssuePath([...path, key]);
      const found = findNul(item, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}
