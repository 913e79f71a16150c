import { stat } from 'node:fs/promises';
import { AuditLog } from '@arbiter/tool-gate';
import type { FastifyInstance } from 'fastify';
import type { GateAuditRecord } from '../runtime/tool-gating/harness-tool-gate.js';
import { invalidInput, UhpHttpError } from '../uhp-error.js';
import type { UhpServices } from '../uhp-services.js';

/** The log is read whole on each request; past this size the CLI (`arbiter gate log`) reads it. */
export const MAX_AUDIT_LOG_BYTES = 64 * 1024 * 1024;
const VERDICTS = new Set(['ALLOW', 'DENY', 'ASK']);

interface AuditQuery {
  verdict?: string;
  tool?: string;
  since?: string;
  until?: string;
  limit?: string;
}

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
export function registerGateAuditRoutes(app: FastifyInstance, services: UhpServices): void {
  const log = new AuditLog<GateAuditRecord>(services.layout.gateAuditLog());
  app.get<{ Querystring: AuditQuery }>('/v1/gate/audit', async (request) => {
    const query = request.query;
    if (query.verdict && !VERDICTS.has(query.verdict))
      throw invalidInput('verdict must be ALLOW, DENY or ASK.', 'verdict');
    const since = timeParameter(query.since, 'since');
    const until = timeParameter(query.until, 'until');
    const limit = query.limit === undefined ? 100 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      throw invalidInput('limit must be an integer from 1 to 1000.', 'limit');
    const size = await stat(log.path).then(
      (info) => info.size,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return 0;
        throw error;
      },
    );
    if (size > MAX_AUDIT_LOG_BYTES)
      throw new UhpHttpError(
        422,
        'arbiter_audit_log_too_large',
        `The gate audit log is larger than ${MAX_AUDIT_LOG_BYTES / 1024 / 1024} MiB; read it with \`arbiter gate log\` on the server.`,
      );
    const principal = services.principalOf(request);
    const owned = new Map<string, boolean>();
    const ownedSession = async (sessionId: string) => {
      let mine = owned.get(sessionId);
      if (mine === undefined) {
        mine = (await services.store.getSession(principal, sessionId)) !== undefined;
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
    return { object: 'list', entries: selected, chain: { intact: verification.ok } };
  });
}
