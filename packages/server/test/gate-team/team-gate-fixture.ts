import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createKeyAuthenticator } from '@arbiter/auth';
import { ModelCatalog } from '@arbiter/engine';
import { openDatabase, SqliteDatabase } from '@arbiter/storage';
import type { TeamOutcomeRecord, TeamVerdictRecord } from '@arbiter/tool-gate/team';
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { KeyStore } from '../../src/auth/key-store.js';
import type { TeamGateConfig } from '../../src/gate/team-gate-config.js';
import { TeamGateStore } from '../../src/gate/team-gate-store.js';
import { migrations } from '../../src/storage/migrations.js';

/** A clock the test moves by hand: outcomes and receive times are judged by it. */
export class ManualClock {
  #ms: number;
  constructor(iso = '2026-11-20T10:00:00.000Z') {
    this.#ms = Date.parse(iso);
  }
  now = (): Date => new Date(this.#ms);
  advance(seconds: number): void {
    this.#ms += seconds * 1000;
  }
}

export interface TeamGateServer {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly clock: ManualClock;
  /** The server's SQLite file, opened a second time, as a person with a shell would. */
  readonly raw: Database;
  readonly keys: { alice: string; bob: string; ops: string; reporter: string };
  readonly principals: { alice: string; bob: string; ops: string };
  request(
    method: string,
    route: string,
    key: string | null,
    body?: unknown,
    headers?: Record<string, string>,
    // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON the server answered
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * The real app on a real SQLite file, listening on a loopback port: a member key each for alice
 * and bob, an operator key, and a reporter key of alice's principal.
 */
export async function startTeamGateServer(
  config: Partial<TeamGateConfig> = {},
  requestsPerMinute: number | null = null,
): Promise<TeamGateServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-gate-team-'));
  const db = openDatabase(dataDir, migrations);
  const sql = new SqliteDatabase(db);
  const keyStore = await KeyStore.open(sql);
  const alice = await keyStore.create('alice', 'member');
  const bob = await keyStore.create('bob', 'member');
  const ops = await keyStore.create('ops', 'operator');
  const reporter = await keyStore.create('alice', 'reporter');
  const clock = new ManualClock();
  const app = await buildApp({
    catalog: new ModelCatalog({ analysers: [] }),
    authenticator: createKeyAuthenticator(keyStore),
    keyAdmin: keyStore,
    console: false,
    limits: { requestsPerMinute },
    teamGate: { store: new TeamGateStore(sql), config, now: clock.now },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const raw = openDatabase(dataDir, migrations);
  return {
    url,
    app,
    clock,
    raw,
    keys: { alice: alice.key, bob: bob.key, ops: ops.key, reporter: reporter.key },
    principals: {
      alice: alice.record.principal.id,
      bob: bob.record.principal.id,
      ops: ops.record.principal.id,
    },
    async request(method, route, key, body, headers = {}) {
      const response = await fetch(`${url}${route}`, {
        method,
        headers: {
          ...(key === null ? {} : { authorization: `Bearer ${key}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text === '' ? null : JSON.parse(text),
        headers: response.headers,
      };
    },
    async close() {
      await app.close();
      raw.close();
      db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const SHA = (char: string) => char.repeat(64);

/** A verdict record as a hook builds it; `command` makes it a shell call. */
export function verdictRecord(overrides: Partial<TeamVerdictRecord> = {}): TeamVerdictRecord {
  const command = overrides.call?.command ?? 'npm run build --prod';
  return {
    kind: 'verdict',
    id: randomUUID(),
    time: '2026-11-20T09:59:59.000Z',
    host: 'claude-code',
    session: 'session-1',
    tool: 'Bash',
    call_key: SHA('a'),
    program: command.split(' ')[0]?.slice(0, 200) || null,
    call: { command, summary: command.slice(0, 100) },
    project: 'arbiter',
    verdict: 'ASK',
    effective: 'ASK',
    rule: 4,
    decided_by: 'gate',
    reason: 'the analysis asks',
    answers: { is_read_only: false },
    pack: { name: 'tool-gate', version: '1.0.0', sha256: SHA('b') },
    call_sha256: SHA('c'),
    team_policy_sha256: null,
    model: 'arbiter-latest',
    ...overrides,
  };
}

/** The host's "it ran" for a verdict: same session and call key. */
export function outcomeRecord(
  verdict: TeamVerdictRecord,
  overrides: Partial<TeamOutcomeRecord> = {},
): TeamOutcomeRecord {
  return {
    kind: 'outcome',
    id: randomUUID(),
    time: '2026-11-20T10:00:05.000Z',
    host: verdict.host,
    session: verdict.session,
    tool: verdict.tool,
    call_key: verdict.call_key,
    outcome: 'ran',
    ...overrides,
  };
}
