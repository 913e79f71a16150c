import { stat } from 'node:fs/promises';
import { AuditLog } from '@arbiter/tool-gate';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GateAuditRecord } from '../runtime/tool-gating/harness-tool-gate.js';
import { invalidInput, UhpFailure } from '../uhp-error.js';
import { BEARER, errorAnswers, integerQuery } from './uhp-route-schemas.js';

/** The log is read whole on each request; past this size the CLI (`arbiter gate log`) reads it. */
export const MAX_AUDIT_LOG_BYTES = 64 * 1024 * 1024;
const VERDICTS = ['ALLOW', 'DENY', 'ASK'] as const;

const auditQuerySchema = z.object({
  verdict: z
    .enum(VERDICTS, { error: 'must be ALLOW, DENY or ASK' })
    .optional()
    .describe('The effective verdict'),
  tool: z.string().optional().describe('The tool name, exactly'),
  since: z.string().optional().describe('ISO 8601 time, inclusive'),
  until: z.string().optional().describe('ISO 8601 time, inclusive'),
  limit: integerQuery(1, 1000).describe('Entries, newest first; default 100'),
});

const auditEntrySchema = z.object({
  seq: z.number().int(),
  time: z.string(),
  sha256: z.string(),
  session_id: z.string(),
  response_id: z.string(),
  call_id: z.string(),
  tool: z.string(),
  verdict: z.enum(VERDICTS).nullable().describe('null when neither the gate nor the policy decided'),
  effective: z.enum(VERDICTS).nullable(),
  rule: z.number().int().min(1).max(6).nullable().describe('The composition rule that fired'),
  decided_by: z.enum(['gate', 'policy', 'team', 'none']),
  reason: z.string(),
  model: z.string().nullable(),
  latency_ms: z.number(),
  answers: z.unknown().describe('The six questions’ answers, when the engine was asked'),
});

function timeParameter(value: string | undefined, name: string): number | null {
  if (value === undefined || value === '') return null;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw invalidInput(`${name} must be an ISO 8601 time.`, name);
  return time;
}

/**
 * `GET /v1/gate/audit`: the verdicts the gate gave on the caller's own harness runs, newest first,
 * from the hash-chained log `uhp/gate-audit.jsonl`, filtered by verdict, tool and time. A line
 * belongs to the principal that owns its session, so nobody sees another's calls; `chain.intact`
 * says whether the whole log verifies (where it breaks is for the operator: `arbiter gate log
 * --verify`, since the line numbers would tell how much others did).
 */
export const gateAuditRoutes = fastifyPlugin(
  async (app: FastifyInstance) => {
    const log = new AuditLog<GateAuditRecord>(app.uhpLayout.gateAuditLog());
    const audit = {
      schema: {
        operationId: 'uhpGateAudit',
        summary: 'The tool gate’s verdicts on your own sessions, newest first',
        tags: ['uhp: gate'],
        security: BEARER,
        querystring: auditQuerySchema,
        response: {
          200: z
            .object({
              object: z.literal('list'),
              entries: z.array(auditEntrySchema),
              chain: z.object({
                intact: z.boolean().describe('Whether the whole log’s hash chain verifies'),
              }),
            })
            .describe('The matching verdicts'),
          ...errorAnswers([422]),
        },
      },
    };
    app.withTypeProvider<ZodTypeProvider>().get('/v1/gate/audit', audit, async (request) => {
      const query = request.query;
      const since = timeParameter(query.since, 'since');
      const until = timeParameter(query.until, 'until');
      const limit = query.limit ?? 100;
      const size = await stat(log.path).then(
        (info) => info.size,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return 0;
          throw error;
        },
      );
      if (size > MAX_AUDIT_LOG_BYTES)
        throw new UhpFailure(
          'arbiter_audit_log_too_large',
          `The gate audit log is larger than ${MAX_AUDIT_LOG_BYTES / 1024 / 1024} MiB; read it with \`arbiter gate log\` on the server.`,
        );
      const principal = request.principal!.id;
      const owned = new Map<string, boolean>();
      const ownedSession = async (sessionId: string) => {
        let mine = owned.get(sessionId);
        if (mine === undefined) {
          mine = (await app.uhpStore.getSession(principal, sessionId)) !== undefined;
          owned.set(sessionId, mine);
        }
        return mine;
      };
      const [entries, verification] = await Promise.all([log.read(), log.verify()]);
      const selected = [];
      for (let index = entries.length - 1; index >= 0 && selected.length < limit; index--) {
        const entry = entries[index];
        if (!entry) continue;
        const { record } = entry;
        if (!(await ownedSession(record.session_id))) continue;
        if (query.verdict && record.effective !== query.verdict) continue;
        if (query.tool && record.tool !== query.tool) continue;
        const time = Date.parse(entry.time);
        if (since !== null && time < since) continue;
        if (until !== null && time > until) continue;
        selected.push({
          seq: entry.seq,
          time: entry.time,
          sha256: entry.sha256,
          session_id: record.session_id,
          response_id: record.response_id,
          call_id: record.call_id,
          tool: record.tool,
          verdict: record.verdict,
          effective: record.effective,
          rule: record.rule,
          decided_by: record.decided_by,
          reason: record.reason,
          model: record.model,
          latency_ms: record.latency_ms,
          answers: record.answers,
        });
      }
      return { object: 'list' as const, entries: selected, chain: { intact: verification.ok } };
    });
  },
  {
    name: 'arbiter-uhp-gate-audit-routes',
    fastify: '5.x',
    decorators: { fastify: ['uhpStore', 'uhpLayout'] },
  },
);
