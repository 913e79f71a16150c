import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type TeamPolicy,
  type TeamRecord,
  teamPolicySha256,
  teamReportBodySchema,
} from '@arbiter/tool-gate/team';

/**
 * A small real HTTP server that speaks the team gate's wire contract (`@arbiter/tool-gate/team`)
 * as docs/api.md describes it, for testing the hook's flusher before and beside the real server:
 * bodies validated with `teamReportBodySchema`, records stored once per id per key in arrival
 * order with a hash chain, the policy served with an ETag and 304 on `If-None-Match`, errors in
 * the API's envelope.
 */
export class TeamContractServer {
  /** Every request body of `POST /v1/gate/reports`, byte for byte as it arrived. */
  readonly bodies: Buffer[] = [];
  /** Stored records per key, in the order they were appended. */
  readonly stored = new Map<string, TeamRecord[]>();
  /** Every record id received, duplicates included, in order (to see double sends). */
  readonly received: string[] = [];
  policyRequests = 0;
  notModified = 0;
  /** Milliseconds to hold each report's answer (to make two flushers overlap). */
  delayMs = 0;
  /** Store the next report's records, then drop the connection without an answer (a lost reply). */
  loseNextAnswer = false;
  /** Answer the next report with this status (and no storing). */
  refuseNext: number | null = null;
  policy: TeamPolicy;
  /** Runs when a policy request arrives (a test appends to the queue then, after the last batch). */
  onPolicyRequest: (() => void) | null = null;
  #server: Server | null = null;
  #heads = new Map<string, string>();
  #port = 0;

  constructor(
    readonly keys: readonly string[],
    allow: readonly string[] = [],
  ) {
    this.policy = TeamContractServer.policyOf(allow);
  }

  static policyOf(allow: readonly string[], reportCwd: 'project' | 'full' = 'project'): TeamPolicy {
    const rules = { version: 1 as const, allow: [...allow], report_cwd: reportCwd };
    return { ...rules, sha256: teamPolicySha256(rules), updated_at: '2026-11-28T07:00:00.000Z' };
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Listens on loopback; on the same port as before after `stop()` (the server "comes back"). */
  async start(): Promise<this> {
    const server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const key = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (key === undefined || !this.keys.includes(key))
      return error(response, 401, 'authentication_error', 'invalid_api_key', 'the API key is not valid');
    if (request.method === 'POST' && request.url === '/v1/gate/reports') {
      this.bodies.push(body);
      if (this.refuseNext !== null) {
        const status = this.refuseNext;
        this.refuseNext = null;
        return error(response, status, 'api_error', 'refused_for_test', 'refused by the test');
      }
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        return error(response, 400, 'invalid_request_error', 'invalid_json', 'the body is not JSON');
      }
      const parsed = teamReportBodySchema.safeParse(json);
      if (!parsed.success)
        return error(response, 400, 'invalid_request_error', 'invalid_request', parsed.error.message);
      // As the real server does (docs/api.md): a string holding U+0000 is refused, naming the record.
      const nul = parsed.data.records.findIndex((entry) => JSON.stringify(entry).includes('\\u0000'));
      if (nul !== -1)
        return error(
          response,
          400,
          'invalid_request_error',
          'invalid_request',
          `records[${nul}]: contains a NUL character`,
          `records[${nul}]`,
        );
      const log = this.stored.get(key) ?? [];
      this.stored.set(key, log);
      let accepted = 0;
      let duplicates = 0;
      for (const record of parsed.data.records) {
        this.received.push(record.id);
        if (log.some((stored) => stored.id === record.id)) {
          duplicates++;
          continue;
        }
        log.push(record);
        const previous = this.#heads.get(key) ?? '0'.repeat(64);
        this.#heads.set(
          key,
          createHash('sha256').update(previous).update(JSON.stringify(record)).digest('hex'),
        );
        accepted++;
      }
      if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      if (this.loseNextAnswer) {
        this.loseNextAnswer = false;
        request.socket.destroy();
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ accepted, duplicates, head: this.#heads.get(key) ?? '0'.repeat(64) }));
      return;
    }
    if (request.method === 'GET' && request.url === '/v1/gate/policy') {
      this.policyRequests++;
      this.onPolicyRequest?.();
      const etag = `"${this.policy.sha256}"`;
      response.setHeader('etag', etag);
      if (request.headers['if-none-match'] === etag) {
        this.notModified++;
        response.statusCode = 304;
        response.end();
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(this.policy));
      return;
    }
    error(response, 404, 'invalid_request_error', 'not_found', `no route ${request.method} ${request.url}`);
  }
}

function error(
  response: ServerResponse,
  status: number,
  type: string,
  code: string,
  message: string,
  param: string | null = null,
): void {
  response.statusCode = status;
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ error: { type, code, message, param } }));
}
