import { TEAM_REPORT_LIMITS, type TeamVerdictRecord, teamPolicySha256 } from '@arbiter/tool-gate/team';
import { afterEach, describe, expect, it } from 'vitest';
import {
  outcomeRecord,
  startTeamGateServer,
  type TeamGateServer,
  verdictRecord,
} from './team-gate-fixture.js';

// Every test gets a server of its own (real HTTP, a real SQLite file), closed after it.
let server: TeamGateServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
async function start(config = {}, requestsPerMinute: number | null = null): Promise<TeamGateServer> {
  server = await startTeamGateServer(config, requestsPerMinute);
  return server;
}

const GENESIS = '0'.repeat(64);
const key = (char: string) => char.repeat(64);

describe('POST /v1/gate/reports', () => {
  it("appends in order to the principal's chain; a replayed batch is counted as duplicates and leaves the chain as it was", async () => {
    const s = await start();
    const records = [verdictRecord(), verdictRecord({ call_key: key('d') }), outcomeRecord(verdictRecord())];
    const first = await s.request('POST', '/v1/gate/reports', s.keys.reporter, { records });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ accepted: 3, duplicates: 0 });
    expect(first.body.head).toMatch(/^[0-9a-f]{64}$/);
    const entries = () =>
      s.raw.prepare('SELECT seq, prev, sha256, record_id FROM gate_team_entries ORDER BY seq').all() as {
        seq: number;
        prev: string;
        sha256: string;
        record_id: string;
      }[];
    const before = entries();
    expect(before.map((entry) => entry.record_id)).toEqual(records.map((record) => record.id));
    expect(before[0]?.prev).toBe(GENESIS);
    expect(before[1]?.prev).toBe(before[0]?.sha256);
    expect(before[2]?.sha256).toBe(first.body.head);

    const replay = await s.request('POST', '/v1/gate/reports', s.keys.reporter, { records });
    expect(replay.body).toEqual({ accepted: 0, duplicates: 3, head: first.body.head });
    expect(entries()).toEqual(before);

    // A batch that repeats an id within itself, and mixes old and new ids.
    const fresh = verdictRecord();
    const mixed = await s.request('POST', '/v1/gate/reports', s.keys.alice, {
      records: [records[0], fresh, fresh],
    });
    expect(mixed.body).toMatchObject({ accepted: 1, duplicates: 2 });
    expect(entries()).toHaveLength(4);
    const verified = await s.request('GET', '/v1/gate/audit/verify', s.keys.alice);
    expect(verified.body).toEqual({ ok: true, entries: 4, head: mixed.body.head });
  });

  it('stamps the entries with the server clock and hashes them as the pack hashes an AuditEntry', async () => {
    const s = await start();
    const record = verdictRecord();
    await s.request('POST', '/v1/gate/reports', s.keys.alice, { records: [record] });
    const row = s.raw.prepare('SELECT seq, time, prev, record, sha256 FROM gate_team_entries').get() as {
      seq: number;
      time: string;
      prev: string;
      record: string;
      sha256: string;
    };
    expect(row.time).toBe('2026-11-20T10:00:00.000Z');
    const { canonicalSha256 } = await import('@arbiter/tool-gate/team');
    expect(canonicalSha256({ seq: 1, time: row.time, prev: GENESIS, record })).toBe(row.sha256);
    expect(JSON.parse(row.record)).toEqual(record);
  });

  it('keeps one chain per principal: the same record id under two principals is two entries', async () => {
    const s = await start();
    const record = verdictRecord();
    const alice = await s.request('POST', '/v1/gate/reports', s.keys.alice, { records: [record] });
    const bob = await s.request('POST', '/v1/gate/reports', s.keys.bob, { records: [record] });
    expect(alice.body.accepted).toBe(1);
    expect(bob.body.accepted).toBe(1);
    // Same record, same time, same genesis: the same hash, in two chains.
    expect(bob.body.head).toBe(alice.body.head);
    expect((await s.request('GET', '/v1/gate/audit/verify', s.keys.bob)).body.entries).toBe(1);
  });

  it('refuses bad reports with a 400 naming the record, the member and the limit', async () => {
    const s = await start();
    const post = (body: unknown) => s.request('POST', '/v1/gate/reports', s.keys.reporter, body);
    const tooMany = await post({
      records: Array.from({ length: TEAM_REPORT_LIMITS.recordsPerRequest + 1 }, () => verdictRecord()),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toBe(
      'records: at most 100 records per request (TEAM_REPORT_LIMITS.recordsPerRequest); send the rest in another request',
    );
    const cases: [unknown, string][] = [
      [{ records: [] }, 'records: send at least one record'],
      [
        { records: [verdictRecord(), verdictRecord({ call: { command: 'x'.repeat(4_001), summary: 's' } })] },
        'records[1].call.command: at most 4000 characters',
      ],
      [
        { records: [verdictRecord({ call: { url: 'u'.repeat(2_049), summary: 's' } })] },
        'records[0].call.url: at most 2048 characters',
      ],
      [
        { records: [verdictRecord({ reason: 'r'.repeat(1_001) })] },
        'records[0].reason: at most 1000 characters',
      ],
      [{ records: [verdictRecord({ tool: 't'.repeat(201) })] }, 'records[0].tool: at most 200 characters'],
      [
        { records: [verdictRecord({ project: 'p'.repeat(1_025) })] },
        'records[0].project: at most 1024 characters',
      ],
      [
        { records: [verdictRecord({ answers: { note: 'a'.repeat(TEAM_REPORT_LIMITS.answersJsonChars) } })] },
        'records[0].answers: must be at most 16384 characters as JSON',
      ],
      [
        { records: [{ ...verdictRecord(), kind: 'opinion' }] },
        'records[0].kind: must be "verdict" or "outcome"',
      ],
      [{ records: [{ ...verdictRecord(), extra: 1 }] }, 'records[0]: unknown member "extra"'],
      [{ records: [verdictRecord()], more: true }, 'unknown member "more"; the body is {records: [...]}'],
      [[], 'the body must be a JSON object {records: [...]}'],
      [
        { records: [verdictRecord({ session: 'a\u0000b' })] },
        'records[0].session: contains a NUL character (U+0000), which the server does not store; the hook redacts or drops it',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await post(body);
      expect({
        status: answer.status,
        message: answer.body.error.message,
        code: answer.body.error.code,
      }).toEqual({
        status: 400,
        message,
        code: 'invalid_request',
      });
    }
    // Nothing of a refused report was stored.
    expect(s.raw.prepare('SELECT COUNT(*) AS n FROM gate_team_entries').get()).toEqual({ n: 0 });
  });

  it('takes a full batch of records at their limits, larger than the default body limit', async () => {
    const s = await start();
    const long = (n: number) => 'é'.repeat(n);
    const records = Array.from({ length: TEAM_REPORT_LIMITS.recordsPerRequest }, () =>
      verdictRecord({
        call: {
          command: long(TEAM_REPORT_LIMITS.commandChars),
          path: long(TEAM_REPORT_LIMITS.pathChars),
          url: long(TEAM_REPORT_LIMITS.urlChars),
          summary: long(TEAM_REPORT_LIMITS.summaryChars),
        },
        reason: long(TEAM_REPORT_LIMITS.reasonChars),
        project: long(TEAM_REPORT_LIMITS.projectChars),
      }),
    );
    const body = JSON.stringify({ records });
    expect(Buffer.byteLength(body)).toBeGreaterThan(1_048_576);
    const answer = await s.request('POST', '/v1/gate/reports', s.keys.reporter, body);
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(100);
    // Past the route's own limit, the app's refusal with the limit it applied.
    const tooLarge = await s.request(
      'POST',
      '/v1/gate/reports',
      s.keys.reporter,
      `{"records":[${' '.repeat(8 * 1024 * 1024)}]}`,
    );
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error).toMatchObject({ code: 'body_too_large', detail: { limit_bytes: 8_388_608 } });
  });
});

describe('limits.requestsPerMinute', () => {
  it("counts each principal's team gate requests, reports included", async () => {
    const s = await start({}, 2);
    const post = (key: string) => s.request('POST', '/v1/gate/reports', key, { records: [verdictRecord()] });
    expect((await post(s.keys.reporter)).status).toBe(200);
    expect((await s.request('GET', '/v1/gate/policy', s.keys.alice)).status).toBe(200);
    const third = await post(s.keys.reporter);
    expect(third.status).toBe(429);
    expect(third.body.error).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
    expect(third.body.error.message).toMatch(/^more than 2 team gate requests in a minute; retry after/);
    // Another principal has its own count.
    expect((await post(s.keys.bob)).status).toBe(200);
  });
});

describe('GET /v1/gate/audit/verify', () => {
  it('finds an entry edited in the table, and one deleted', async () => {
    const s = await start();
    const records = [verdictRecord(), verdictRecord({ effective: 'DENY' }), verdictRecord()];
    await s.request('POST', '/v1/gate/reports', s.keys.alice, { records });
    expect((await s.request('GET', '/v1/gate/audit/verify', s.keys.alice)).body.ok).toBe(true);

    // Someone with the database turns the DENY into an ALLOW, in the record and in the column.
    const row = s.raw.prepare('SELECT record FROM gate_team_entries WHERE seq = 2').get() as {
      record: string;
    };
    const edited = JSON.stringify({ ...JSON.parse(row.record), effective: 'ALLOW' });
    s.raw.prepare("UPDATE gate_team_entries SET record = ?, effective = 'ALLOW' WHERE seq = 2").run(edited);
    const afterEdit = await s.request('GET', '/v1/gate/audit/verify', s.keys.alice);
    expect(afterEdit.body).toEqual({
      ok: false,
      entries: 1,
      seq: 2,
      problem: 'entry 2 does not match its hash: it was edited after it was appended',
    });
    s.raw
      .prepare('UPDATE gate_team_entries SET record = ?, effective = ? WHERE seq = 2')
      .run(row.record, 'DENY');
    expect((await s.request('GET', '/v1/gate/audit/verify', s.keys.alice)).body.ok).toBe(true);

    // Only the filter column edited: the record still hashes, the row no longer says what it holds.
    s.raw.prepare("UPDATE gate_team_entries SET effective = 'ALLOW' WHERE seq = 2").run();
    expect((await s.request('GET', '/v1/gate/audit/verify', s.keys.alice)).body.problem).toBe(
      "entry 2's effective column disagrees with its record: the row was edited",
    );
    s.raw.prepare("UPDATE gate_team_entries SET effective = 'DENY' WHERE seq = 2").run();

    s.raw.prepare('DELETE FROM gate_team_entries WHERE seq = 2').run();
    expect((await s.request('GET', '/v1/gate/audit/verify', s.keys.alice)).body).toEqual({
      ok: false,
      entries: 1,
      seq: 3,
      problem: 'entry 3 follows entry 1: an entry is missing or out of order',
    });
  });

  it("answers for the key's own principal; an operator may name any, a member may not", async () => {
    const s = await start();
    await s.request('POST', '/v1/gate/reports', s.keys.alice, { records: [verdictRecord()] });
    expect((await s.request('GET', '/v1/gate/audit/verify', s.keys.bob)).body).toEqual({
      ok: true,
      entries: 0,
      head: GENESIS,
    });
    const asOperator = await s.request(
      'GET',
      `/v1/gate/audit/verify?principal=${s.principals.alice}`,
      s.keys.ops,
    );
    expect(asOperator.body).toMatchObject({ ok: true, entries: 1 });
    const asBob = await s.request('GET', `/v1/gate/audit/verify?principal=${s.principals.alice}`, s.keys.bob);
    expect(asBob.status).toBe(403);
    expect(asBob.body.error.code).toBe('insufficient_scope');
    expect((await s.request('GET', '/v1/gate/audit/verify', s.keys.reporter)).status).toBe(403);
  });
});

describe('GET /v1/gate/records', () => {
  it('scopes rows: a member sees its own, naming another is refused, a reporter reads nothing, an operator sees all', async () => {
    const s = await start();
    await s.request('POST', '/v1/gate/reports', s.keys.alice, {
      records: [verdictRecord({ call: { command: 'make alice', summary: 'a' } })],
    });
    await s.request('POST', '/v1/gate/reports', s.keys.bob, {
      records: [verdictRecord({ call: { command: 'make bob', summary: 'b' } })],
    });
    const commands = (body: { data: { record: { call: { command: string } } }[] }) =>
      body.data.map((row) => row.record.call.command);
    expect(commands((await s.request('GET', '/v1/gate/records', s.keys.alice)).body)).toEqual(['make alice']);
    expect(commands((await s.request('GET', '/v1/gate/records', s.keys.bob)).body)).toEqual(['make bob']);
    const own = await s.request('GET', `/v1/gate/records?principal=${s.principals.alice}`, s.keys.alice);
    expect(commands(own.body)).toEqual(['make alice']);
    const other = await s.request('GET', `/v1/gate/records?principal=${s.principals.bob}`, s.keys.alice);
    expect(other.status).toBe(403);
    expect(other.body.error.message).toContain("reads only its own principal's team gate records");
    for (const route of ['/v1/gate/records', '/v1/gate/stats', '/v1/gate/suggestions']) {
      const refused = await s.request('GET', route, s.keys.reporter);
      expect(refused.status, route).toBe(403);
      expect(refused.body.error.message, route).toContain('the key you sent is a reporter key');
    }
    const all = await s.request('GET', '/v1/gate/records', s.keys.ops);
    expect(commands(all.body)).toEqual(['make bob', 'make alice']);
    expect(all.body.data.map((row: { principal: { name: string } }) => row.principal.name)).toEqual([
      'bob',
      'alice',
    ]);
    const onlyBob = await s.request('GET', `/v1/gate/records?principal=${s.principals.bob}`, s.keys.ops);
    expect(commands(onlyBob.body)).toEqual(['make bob']);
  });

  it('folds an outcome into the latest ASK with the same session and call key; an unanswered ASK is pending, then declined', async () => {
    const s = await start({ declineAfterSeconds: 600 });
    const asked = verdictRecord({ call_key: key('1') });
    const askedOtherSession = verdictRecord({ call_key: key('1'), session: 'session-2' });
    const unanswered = verdictRecord({ call_key: key('2') });
    const allowed = verdictRecord({ call_key: key('3'), verdict: 'ALLOW', effective: 'ALLOW' });
    const denied = verdictRecord({ call_key: key('4'), verdict: 'DENY', effective: 'DENY' });
    await s.request('POST', '/v1/gate/reports', s.keys.reporter, {
      records: [asked, askedOtherSession, unanswered, allowed, denied],
    });
    s.clock.advance(30);
    // The call that ran in session-1; an outcome for the ALLOW changes nothing.
    await s.request('POST', '/v1/gate/reports', s.keys.reporter, {
      records: [outcomeRecord(asked), outcomeRecord(allowed)],
    });
    const outcomes = async () => {
      const page = await s.request('GET', '/v1/gate/records', s.keys.alice);
      return Object.fromEntries(
        page.body.data.map((row: { record: { id: string }; outcome: string; outcome_at: string | null }) => [
          row.record.id,
          [row.outcome, row.outcome_at],
        ]),
      );
    };
    expect(await outcomes()).toEqual({
      [asked.id]: ['approved', '2026-11-20T10:00:30.000Z'],
      [askedOtherSession.id]: ['pending', null],
      [unanswered.id]: ['pending', null],
      [allowed.id]: ['allowed', null],
      [denied.id]: ['denied', null],
    });
    // At exactly the window an ASK is still pending; a second later it was declined or abandoned.
    s.clock.advance(570);
    expect((await outcomes())[unanswered.id]).toEqual(['pending', null]);
    s.clock.advance(1);
    expect((await outcomes())[unanswered.id]).toEqual(['declined', null]);
    expect((await outcomes())[asked.id][0]).toBe('approved');
    // A late "it ran" still approves it: the host ran the call after all.
    await s.request('POST', '/v1/gate/reports', s.keys.reporter, { records: [outcomeRecord(unanswered)] });
    expect((await outcomes())[unanswered.id][0]).toBe('approved');
  });

  it('folds into the latest verdict only: a second ASK of the same call takes the outcome, the first stays unanswered', async () => {
    const s = await start();
    const first = verdictRecord({ call_key: key('5') });
    const second = verdictRecord({ call_key: key('5') });
    await s.request('POST', '/v1/gate/reports', s.keys.alice, {
      records: [first, second, outcomeRecord(second)],
    });
    const rows = (await s.request('GET', '/v1/gate/records', s.keys.alice)).body.data;
    expect(
      rows.map((row: { record: { id: string }; outcome: string }) => [row.record.id, row.outcome]),
    ).toEqual([
      [second.id, 'approved'],
      [first.id, 'pending'],
    ]);
  });

  it('filters by host, verdict, tool, program and time, and pages newest first without gaps', async () => {
    const s = await start();
    const made: TeamVerdictRecord[] = [];
    for (let index = 0; index < 7; index++) {
      const record = verdictRecord({
        host: index % 2 === 0 ? 'claude-code' : 'gemini',
        tool: index % 2 === 0 ? 'Bash' : 'run_shell_command',
        effective: index < 3 ? 'ASK' : 'ALLOW',
        program: index === 6 ? 'git' : 'npm',
        call: { command: `npm run step${index}`, summary: `step ${index}` },
      });
      made.push(record);
      await s.request('POST', '/v1/gate/reports', s.keys.alice, { records: [record] });
      s.clock.advance(3600);
    }
    const ids = async (query: string) =>
      (await s.request('GET', `/v1/gate/records${query}`, s.keys.alice)).body.data.map(
        (row: { record: { id: string } }) => row.record.id,
      );
    const id = (index: number) => made[index]?.id;
    expect(await ids('?host=gemini')).toEqual([id(5), id(3), id(1)]);
    expect(await ids('?verdict=ASK')).toEqual([id(2), id(1), id(0)]);
    expect(await ids('?tool=run_shell_command&verdict=ALLOW')).toEqual([id(5), id(3)]);
    expect(await ids('?program=git')).toEqual([id(6)]);
    expect(await ids('?since=2026-11-20T12:00:00Z&until=2026-11-20T14:00:00%2B00:00')).toEqual([
      id(3),
      id(2),
    ]);

    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const page: {
        body: { data: { record: { id: string } }[]; has_more: boolean; next_after: string | null };
      } = await s.request('GET', `/v1/gate/records?limit=3${after ? `&after=${after}` : ''}`, s.keys.alice);
      seen.push(...page.body.data.map((row) => row.record.id));
      expect(page.body.has_more).toBe(page.body.next_after !== null);
      after = page.body.next_after;
      if (after === null) break;
    }
    expect(seen).toEqual(made.map((record) => record.id).reverse());
  });

  it('refuses bad query parameters with a 400 that names them', async () => {
    const s = await start();
    const cases: [string, string][] = [
      ['?verdict=MAYBE', 'verdict: Invalid option: expected one of "ALLOW"|"DENY"|"ASK"'],
      ['?limit=0', 'limit: Too small: expected number to be >=1'],
      ['?limit=501', 'limit: Too big: expected number to be <=500'],
      ['?limit=ten', 'limit: must be a whole number'],
      ['?after=abc', 'after: must be the next_after of the previous page'],
      ['?since=yesterday', 'since: must be an ISO 8601 date and time with a zone (2026-11-28T09:00:00Z)'],
      ['?since=2026-11-21T00:00:00Z&until=2026-11-20T00:00:00Z', 'since: must not be after until'],
      ['?program=np%00m', 'program: contains a NUL character (U+0000)'],
      ['?host=vim', 'host: Invalid option: expected one of "claude-code"|"gemini"|"codex"|"acp"|"other"'],
      [
        '?colour=red',
        'unknown query parameter "colour"; this route reads principal, host, verdict, tool, program, since, until, limit, after',
      ],
    ];
    for (const [query, message] of cases) {
      const answer = await s.request('GET', `/v1/gate/records${query}`, s.keys.alice);
      expect({ query, status: answer.status, message: answer.body.error.message }).toEqual({
        query,
        status: 400,
        message,
      });
    }
  });
});

describe('GET /v1/gate/stats', () => {
  it('counts verdicts per day, the most asked programs and the approval of ASKs', async () => {
    const s = await start({ declineAfterSeconds: 3600 });
    const approvedAsk = verdictRecord({ call_key: key('1'), program: 'npm' });
    const declinedAsk = verdictRecord({ call_key: key('2'), program: 'npm' });
    await s.request('POST', '/v1/gate/reports', s.keys.alice, {
      records: [approvedAsk, declinedAsk, verdictRecord({ effective: 'ALLOW', program: 'ls' })],
    });
    s.clock.advance(86_400);
    const pendingAsk = verdictRecord({ call_key: key('3'), program: 'git' });
    await s.request('POST', '/v1/gate/reports', s.keys.alice, {
      records: [outcomeRecord(approvedAsk), pendingAsk, verdictRecord({ effective: 'DENY', program: 'rm' })],
    });
    await s.request('POST', '/v1/gate/reports', s.keys.bob, {
      records: [verdictRecord({ program: 'make' })],
    });

    const alice = await s.request('GET', '/v1/gate/stats', s.keys.alice);
    expect(alice.body).toEqual({
      per_day: [
        { day: '2026-11-20', ALLOW: 1, DENY: 0, ASK: 2 },
        { day: '2026-11-21', ALLOW: 0, DENY: 1, ASK: 1 },
      ],
      asked_programs: [
        { program: 'npm', asked: 2, approved: 1, declined: 1 },
        { program: 'git', asked: 1, approved: 0, declined: 0 },
      ],
      approval: { asked: 3, approved: 1, declined: 1, pending: 1, rate: 0.5 },
    });
    const all = await s.request('GET', '/v1/gate/stats', s.keys.ops);
    expect(all.body.approval).toEqual({ asked: 4, approved: 1, declined: 1, pending: 2, rate: 0.5 });
    const secondDay = await s.request('GET', '/v1/gate/stats?since=2026-11-21T00:00:00Z', s.keys.ops);
    expect(secondDay.body.per_day).toEqual([{ day: '2026-11-21', ALLOW: 0, DENY: 1, ASK: 2 }]);
    const empty = await s.request('GET', '/v1/gate/stats?program=none', s.keys.alice);
    expect(empty.body.approval).toEqual({ asked: 0, approved: 0, declined: 0, pending: 0, rate: null });
  });
});

describe('suggestions and the team policy', () => {
  /** Reports `times` ASKs of one command by the key, each then run. */
  async function approve(
    s: TeamGateServer,
    reporterKey: string,
    command: string,
    times: number,
    tool = 'Bash',
  ) {
    for (let index = 0; index < times; index++) {
      const asked = verdictRecord({
        tool,
        call_key: key(String(index % 10)),
        call: { command, summary: command },
      });
      await s.request('POST', '/v1/gate/reports', reporterKey, { records: [asked, outcomeRecord(asked)] });
    }
  }

  it('suggests a kind approved suggestAfter times across principals and never declined; accepting changes the policy, its hash and ETag', async () => {
    const s = await start({ suggestAfter: 3, declineAfterSeconds: 600 });
    const policy0 = await s.request('GET', '/v1/gate/policy', s.keys.reporter);
    expect(policy0.status).toBe(200);
    expect(policy0.body).toEqual({
      version: 1,
      allow: [],
      report_cwd: 'project',
      sha256: teamPolicySha256({ version: 1, allow: [], report_cwd: 'project' }),
      updated_at: null,
    });
    expect(policy0.headers.get('etag')).toBe(`"${policy0.body.sha256}"`);
    const notModified = await s.request('GET', '/v1/gate/policy', s.keys.reporter, undefined, {
      'if-none-match': policy0.headers.get('etag') ?? '',
    });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeNull();
    // The bare hash (as the hook holds it from the body) and a list work too; another hash does not.
    for (const header of [policy0.body.sha256, `W/"${key('f')}", "${policy0.body.sha256}"`])
      expect(
        (await s.request('GET', '/v1/gate/policy', s.keys.alice, undefined, { 'if-none-match': header }))
          .status,
      ).toBe(304);
    expect(
      (
        await s.request('GET', '/v1/gate/policy', s.keys.alice, undefined, {
          'if-none-match': `"${key('f')}"`,
        })
      ).status,
    ).toBe(200);

    // Two developers approve `npm run build` with different options three times between them.
    await approve(s, s.keys.reporter, 'npm run build --prod', 2);
    await approve(s, s.keys.bob, 'npm run build', 1, 'run_shell_command');
    // `make test` approved three times but declined once: never suggested.
    await approve(s, s.keys.bob, 'make test', 3);
    await s.request('POST', '/v1/gate/reports', s.keys.bob, {
      records: [verdictRecord({ call_key: key('e'), call: { command: 'make test', summary: 'm' } })],
    });
    // Fetches of one host; and a compound line approved many times, which is never a suggestion.
    await approve(s, s.keys.alice, 'https://docs.example.com/a', 0);
    for (let index = 0; index < 3; index++) {
      const url = `https://docs.example.com/page${index}`;
      const asked = verdictRecord({
        tool: 'WebFetch',
        program: null,
        call_key: key(String(index)),
        call: { url, summary: url },
      });
      await s.request('POST', '/v1/gate/reports', s.keys.alice, { records: [asked, outcomeRecord(asked)] });
    }
    await approve(s, s.keys.alice, 'npm test && npm run build', 4);
    // Only two approvals of `cargo test`: not yet.
    await approve(s, s.keys.alice, 'cargo test', 2);
    s.clock.advance(601);

    const listed = await s.request('GET', '/v1/gate/suggestions', s.keys.ops);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((entry: { rule: string }) => entry.rule)).toEqual([
      'Bash(npm run build:*)',
      'WebFetch(domain:docs.example.com)',
    ]);
    const build = listed.body.data[0];
    expect(build).toMatchObject({
      tool: 'Bash',
      asked: 3,
      approved: 3,
      status: 'suggested',
      decided_at: null,
      decided_by: null,
    });
    expect(build.id).toMatch(/^sug_[0-9a-f]{24}$/);
    expect(build.examples).toEqual(['npm run build', 'npm run build --prod']);
    expect(listed.body.data[1].examples).toHaveLength(3);

    // A member may not see or decide suggestions.
    expect((await s.request('GET', '/v1/gate/suggestions', s.keys.alice)).status).toBe(403);
    const memberAccept = await s.request('POST', `/v1/gate/suggestions/${build.id}/accept`, s.keys.alice);
    expect(memberAccept.status).toBe(403);
    expect(memberAccept.body.error.message).toContain('this route admits operator keys');

    s.clock.advance(5);
    const withOptions = await s.request('POST', `/v1/gate/suggestions/${build.id}/accept`, s.keys.ops, {
      rule: 'Bash(*)',
    });
    expect(withOptions.status).toBe(400);
    expect(withOptions.body.error.message).toBe(
      "this route takes no body, or {}; the decision is the path's accept",
    );
    // The console sends `{}`.
    const accepted = await s.request('POST', `/v1/gate/suggestions/${build.id}/accept`, s.keys.ops, {});
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      id: build.id,
      rule: 'Bash(npm run build:*)',
      status: 'accepted',
      decided_at: '2026-11-20T10:10:06.000Z',
      decided_by: { id: s.principals.ops, name: 'ops' },
    });
    const policy1 = await s.request('GET', '/v1/gate/policy', s.keys.reporter, undefined, {
      'if-none-match': policy0.headers.get('etag') ?? '',
    });
    expect(policy1.status).toBe(200);
    expect(policy1.body.allow).toEqual(['Bash(npm run build:*)']);
    expect(policy1.body.sha256).not.toBe(policy0.body.sha256);
    expect(policy1.body.sha256).toBe(
      teamPolicySha256({ version: 1, allow: ['Bash(npm run build:*)'], report_cwd: 'project' }),
    );
    expect(policy1.headers.get('etag')).toBe(`"${policy1.body.sha256}"`);
    expect(policy1.body.updated_at).toBe('2026-11-20T10:10:06.000Z');

    // Accepting again changes nothing in the policy; rejecting withdraws the rule.
    await s.request('POST', `/v1/gate/suggestions/${build.id}/accept`, s.keys.ops);
    expect((await s.request('GET', '/v1/gate/policy', s.keys.alice)).body).toEqual(policy1.body);
    const fetchRule = listed.body.data[1];
    await s.request('POST', `/v1/gate/suggestions/${fetchRule.id}/accept`, s.keys.ops);
    expect((await s.request('GET', '/v1/gate/policy', s.keys.alice)).body.allow).toEqual([
      'Bash(npm run build:*)',
      'WebFetch(domain:docs.example.com)',
    ]);
    const rejected = await s.request('POST', `/v1/gate/suggestions/${build.id}/reject`, s.keys.ops);
    expect(rejected.body.status).toBe('rejected');
    expect((await s.request('GET', '/v1/gate/policy', s.keys.alice)).body.allow).toEqual([
      'WebFetch(domain:docs.example.com)',
    ]);
    // Decided rules stay listed with their decision.
    const after = await s.request('GET', '/v1/gate/suggestions', s.keys.ops);
    expect(after.body.data.map((entry: { status: string }) => entry.status)).toEqual([
      'rejected',
      'accepted',
    ]);

    const unknown = await s.request('POST', `/v1/gate/suggestions/sug_${'0'.repeat(24)}/accept`, s.keys.ops);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('approved 3 times and never declined');
  });

  it('serves report_cwd from the configuration', async () => {
    const s = await start({ reportCwd: 'full' });
    const policy = await s.request('GET', '/v1/gate/policy', s.keys.reporter);
    expect(policy.body.report_cwd).toBe('full');
    expect(policy.body.sha256).toBe(teamPolicySha256({ version: 1, allow: [], report_cwd: 'full' }));
  });
});

describe('/openapi.json', () => {
  it('documents every team gate route with its body, query and answer', async () => {
    const s = await start();
    const spec = (await s.request('GET', '/openapi.json', null)).body;
    // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is read as plain JSON
    const paths = spec.paths as Record<string, Record<string, Record<string, any>>>;
    expect(
      paths['/v1/gate/reports']?.post?.requestBody?.content['application/json'].schema.properties,
    ).toHaveProperty('records');
    expect(paths['/v1/gate/reports']?.post?.responses['200']).toBeDefined();
    const queries = (paths['/v1/gate/records']?.get?.parameters ?? []).map(
      (parameter: { name: string }) => parameter.name,
    );
    expect(queries).toEqual(
      expect.arrayContaining(['principal', 'host', 'verdict', 'since', 'until', 'limit', 'after']),
    );
    for (const [path, method] of [
      ['/v1/gate/policy', 'get'],
      ['/v1/gate/audit/verify', 'get'],
      ['/v1/gate/stats', 'get'],
      ['/v1/gate/suggestions', 'get'],
      ['/v1/gate/suggestions/{id}/accept', 'post'],
      ['/v1/gate/suggestions/{id}/reject', 'post'],
    ] as const)
      expect(paths[path]?.[method]?.responses['200'], `${method} ${path}`).toBeDefined();
  });
});
