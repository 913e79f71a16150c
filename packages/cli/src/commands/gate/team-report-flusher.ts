import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  TEAM_REPORT_LIMITS,
  type TeamRecord,
  type TeamReportResponse,
  teamReportResponseSchema,
} from '@arbiter/tool-gate/team';
import {
  acquireFileLock,
  type ReleaseFileLock,
  readCachedTeamPolicy,
  TeamReportQueue,
  teamPolicyProblem,
  writeCachedTeamPolicy,
} from '@arbiter/tool-gate/team-reporting';

/** Bounds of one flush (docs/tool-gate.md "The gate for a team"). */
export const TEAM_FLUSH_LIMITS = {
  /** How long a flush waits for another flush of the same queue to finish before giving up. */
  lockWaitMs: 30_000,
  /** A flush lock older than this was left by a killed flusher. */
  staleLockMs: 120_000,
  /** One request's time budget. */
  requestTimeoutMs: 15_000,
  /** Batches per flush: a queue that hooks keep filling still ends the flush. */
  maxBatches: 200,
} as const;

export interface TeamFlushOptions {
  /** The server's base URL, without a trailing slash (`parseTeamServerUrl`). */
  readonly server: string;
  /** ARBITER_API_KEY; a flush without one fails with a message that says so. */
  readonly apiKey: string | undefined;
  /** The reporting directory (`teamReportDirectory`). */
  readonly directory: string;
  readonly fetch?: typeof fetch;
  readonly lockWaitMs?: number;
  readonly requestTimeoutMs?: number;
  /** Records per request; at most the server's `TEAM_REPORT_LIMITS.recordsPerRequest`. */
  readonly batchSize?: number;
}

export type TeamFlushOutcome =
  | {
      readonly ok: true;
      readonly accepted: number;
      readonly duplicates: number;
      /** The head of the principal's chain after the last batch; null when nothing was sent. */
      readonly head: string | null;
      readonly policy: 'updated' | 'unchanged';
      readonly policySha256: string;
    }
  | {
      readonly ok: false;
      /** One line for people; never carries the key. */
      readonly error: string;
      readonly accepted: number;
      readonly duplicates: number;
    };

/**
 * `arbiter gate report flush`: sends the queue to the team server in order, in batches, removing
 * what the server acknowledged, then refreshes the cached team policy with `If-None-Match`. Any
 * failure stops the flush and keeps every record not acknowledged; record ids make a resend
 * harmless (the server stores each id once). One flush at a time per queue (`flush.lock`), so two
 * flushers never send the same records at once; a second one waits for the first.
 */
export async function flushTeamReports(options: TeamFlushOptions): Promise<TeamFlushOutcome> {
  const first = await flushOnce(options);
  // A hook that queued a record after the last batch, while the lock was still held, saw a
  // flusher running and started none: look once more now that the lock is free. Should another
  // flusher have taken the lock meanwhile, that one sends it.
  if (!first.ok || new TeamReportQueue({ directory: options.directory }).status().records === 0) return first;
  const second = await flushOnce({ ...options, lockWaitMs: 0 }, { busyIsFine: true });
  if (second === 'busy') return first;
  const accepted = first.accepted + second.accepted;
  const duplicates = first.duplicates + second.duplicates;
  return second.ok
    ? { ...second, accepted, duplicates, head: second.head ?? first.head }
    : { ...second, accepted, duplicates };
}

async function flushOnce(options: TeamFlushOptions): Promise<TeamFlushOutcome>;
async function flushOnce(
  options: TeamFlushOptions,
  mode: { busyIsFine: true },
): Promise<TeamFlushOutcome | 'busy'>;
async function flushOnce(
  options: TeamFlushOptions,
  mode: { busyIsFine: boolean } = { busyIsFine: false },
): Promise<TeamFlushOutcome | 'busy'> {
  const queue = new TeamReportQueue({ directory: options.directory });
  const fail = (error: string, accepted = 0, duplicates = 0): TeamFlushOutcome => {
    try {
      queue.recordFlush(error);
    } catch {
      // An unwritable directory: the message still reaches the caller.
    }
    return { ok: false, error, accepted, duplicates };
  };
  if (options.apiKey === undefined || options.apiKey === '')
    return fail('ARBITER_API_KEY is not set (a key with the reporter, member or operator role)');
  const batchSize = options.batchSize ?? TEAM_REPORT_LIMITS.recordsPerRequest;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > TEAM_REPORT_LIMITS.recordsPerRequest)
    throw new RangeError(`batchSize must be 1 to ${TEAM_REPORT_LIMITS.recordsPerRequest}, got ${batchSize}`);
  const http = new TeamServerHttp(options);

  let release: ReleaseFileLock | null;
  try {
    // A flush before any hook queued a record still fetches the policy: the directory may be new.
    mkdirSync(options.directory, { recursive: true, mode: 0o700 });
    release = await waitForLock(
      join(options.directory, 'flush.lock'),
      options.lockWaitMs ?? TEAM_FLUSH_LIMITS.lockWaitMs,
    );
  } catch (error) {
    return fail(`cannot use the report directory ${options.directory}: ${messageOf(error)}`);
  }
  if (release === null)
    return mode.busyIsFine ? 'busy' : fail('another flush of this queue is still running; try again later');
  let accepted = 0;
  let duplicates = 0;
  let head: string | null = null;
  const skipped: string[] = [];
  try {
    for (let batch = 0; batch < TEAM_FLUSH_LIMITS.maxBatches; batch++) {
      const records = queue.peek(batchSize);
      if (records.length === 0) break;
      const sent = await http.report(records);
      if (!sent.ok && sent.invalidIndex !== undefined && records[sent.invalidIndex] !== undefined) {
        // The server validates more than the schema (a NUL, a JSON size): a record it refuses
        // would block every record behind it for good, so it goes, counted as dropped.
        queue.drop(new Set([records[sent.invalidIndex]!.id]));
        skipped.push(sent.error);
        continue;
      }
      if (!sent.ok) return fail(sent.error, accepted, duplicates);
      queue.remove(new Set(records.map((record) => record.id)));
      accepted += sent.response.accepted;
      duplicates += sent.response.duplicates;
      head = sent.response.head;
    }
    const policy = await http.refreshPolicy(options.directory);
    if (!policy.ok) return fail(policy.error, accepted, duplicates);
    // A record dropped as invalid stays visible in `gate report status` until the next flush.
    queue.recordFlush(skipped.length === 0 ? null : `dropped a record the server refused: ${skipped.at(-1)}`);
    return { ok: true, accepted, duplicates, head, policy: policy.change, policySha256: policy.sha256 };
  } catch (error) {
    return fail(`the report queue failed: ${messageOf(error)}`, accepted, duplicates);
  } finally {
    release();
  }
}

/** Polls for the lock without blocking the event loop (a flush in this process may hold it). */
async function waitForLock(path: string, waitMs: number): Promise<ReleaseFileLock | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const release = acquireFileLock(path, { waitMs: 0, staleMs: TEAM_FLUSH_LIMITS.staleLockMs });
    if (release !== null || Date.now() >= deadline) return release;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type Sent =
  | { ok: true; response: TeamReportResponse }
  /** `invalidIndex`: the record the server refused as invalid (400 naming `records[i]`). */
  | { ok: false; error: string; invalidIndex?: number };
type Refreshed = { ok: true; change: 'updated' | 'unchanged'; sha256: string } | { ok: false; error: string };

/** The two requests of a flush, with the key in the Authorization header and nowhere else. */
class TeamServerHttp {
  readonly #server: string;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;

  constructor(options: TeamFlushOptions) {
    this.#server = options.server;
    this.#apiKey = options.apiKey ?? '';
    this.#fetch = options.fetch ?? fetch;
    this.#timeoutMs = options.requestTimeoutMs ?? TEAM_FLUSH_LIMITS.requestTimeoutMs;
  }

  async report(records: readonly TeamRecord[]): Promise<Sent> {
    const response = await this.#request('POST', '/v1/gate/reports', JSON.stringify({ records }));
    if (!response.ok) return response;
    if (response.status !== 200) {
      const body = await jsonOf(response.value);
      const error = refusal('the reports', response.value.status, body);
      const param = (body as { error?: { param?: unknown } } | null)?.error?.param;
      const index =
        response.status === 400 && typeof param === 'string' ? /^records\[(\d+)\]/.exec(param) : null;
      return index === null ? { ok: false, error } : { ok: false, error, invalidIndex: Number(index[1]) };
    }
    const parsed = teamReportResponseSchema.safeParse(await jsonOf(response.value));
    if (!parsed.success)
      return { ok: false, error: 'the server answered the reports with an unexpected body' };
    const acknowledged = parsed.data.accepted + parsed.data.duplicates;
    if (acknowledged !== records.length)
      return {
        ok: false,
        error: `the server acknowledged ${acknowledged} of ${records.length} records; they stay queued`,
      };
    return { ok: true, response: parsed.data };
  }

  async refreshPolicy(directory: string): Promise<Refreshed> {
    const cached = readCachedTeamPolicy(directory);
    const response = await this.#request(
      'GET',
      '/v1/gate/policy',
      undefined,
      cached === null ? undefined : `"${cached.sha256}"`,
    );
    if (!response.ok) return response;
    if (response.status === 304 && cached !== null)
      return { ok: true, change: 'unchanged', sha256: cached.sha256 };
    if (response.status !== 200)
      return {
        ok: false,
        error: refusal('the policy request', response.status, await jsonOf(response.value)),
      };
    const policy = await jsonOf(response.value);
    const problem = teamPolicyProblem(policy);
    if (problem !== null) return { ok: false, error: `the server's team policy is unusable: ${problem}` };
    writeCachedTeamPolicy(directory, policy as Parameters<typeof writeCachedTeamPolicy>[1]);
    const sha256 = (policy as { sha256: string }).sha256;
    return { ok: true, change: cached?.sha256 === sha256 ? 'unchanged' : 'updated', sha256 };
  }

  async #request(
    method: 'GET' | 'POST',
    path: string,
    body?: string,
    ifNoneMatch?: string,
  ): Promise<{ ok: true; status: number; value: Response } | { ok: false; error: string }> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#apiKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch;
    try {
      const response = await this.#fetch(`${this.#server}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      return { ok: true, status: response.status, value: response };
    } catch (error) {
      return { ok: false, error: `cannot reach ${this.#server}: ${networkCause(error)}` };
    }
  }
}

/** `the server refused the reports: 401 invalid_api_key: …`, from the API's error envelope. */
function refusal(what: string, status: number, body: unknown): string {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? ` ${error.code}` : '';
  const message = typeof error?.message === 'string' ? `: ${oneLine(error.message)}` : '';
  return `the server refused ${what}: ${status}${code}${message}`;
}

async function jsonOf(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/** fetch's `TypeError: fetch failed` hides the reason in `cause` (ECONNREFUSED, ENOTFOUND, a timeout). */
function networkCause(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return oneLine(cause.message);
  return messageOf(error);
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 300);
const messageOf = (error: unknown): string => oneLine(error instanceof Error ? error.message : String(error));
