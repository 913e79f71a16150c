import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningServer, startServer } from '@arbiter/server';
import { type TeamVerdictRecord, teamCallKey } from '@arbiter/tool-gate/team';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claudeCodeBashEvent,
  describeRun,
  gateHookProcess,
  hookDecision,
} from '../../cli/test/support/gate-hook.js';
import { ARBITER_BIN, type CliRun, runArbiter } from '../../cli/test/support/run-arbiter.js';
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from '../../server/test/fixtures/throwaway-postgres.js';

/**
 * Issue 32 end to end: two developers' real hook processes (`arbiter gate hook claude-code
 * --server URL`, each with its own key and ARBITER_HOME) judge calls and report them, with the
 * PostToolUse events that say a person approved an asked call, to a real `startServer` on
 * loopback; `arbiter gate report flush` delivers the queues; an operator in a real headless
 * Chromium sees both developers' rows, accepts the rule the server suggests for the routine call,
 * and a later hook allows that call without asking (decided by the team) while a dangerous variant
 * is still denied. A second scenario stops the server, lets the hooks queue, restarts it on the
 * same data directory and port, replays the queue (twice: a lost acknowledgement), and the audit
 * chain verifies with exactly the records sent.
 *
 * The CLI runs from its build (`npx tsc -b` first); the console from its bundle (built here if
 * missing). Each step's failure message names the step and carries the process's output. The time
 * goes to the hook processes (each loads the gate, about 0.7 s of CPU, and starts a detached
 * flusher); the limits leave room for a loaded machine, where the first scenario took 56-79 s.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.resolve(here, '..');
const repositoryRoot = path.resolve(packageRoot, '../..');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];
const screenshots =
  process.env.ARBITER_UPDATE_SCREENSHOTS === '1'
    ? path.join(repositoryRoot, 'docs/console')
    : fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-team-screenshots-'));

/** The routine call: the analysis asks about it (checked with `arbiter gate hook` before it was chosen). */
const ROUTINE = 'npm install lodash';
/** The routine call with a destructive tail: the analysis denies it, and no team rule may change that. */
const DANGEROUS = 'npm install lodash && rm -rf ~';
/** A call with a GitHub token in it: the hook must redact it before anything leaves the machine. */
const TOKEN = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
const WITH_TOKEN = `git remote set-url origin https://x-access-token:${TOKEN}@github.com/acme/shop.git`;
/** The server's default `toolGating.team.suggestAfter`. */
const SUGGEST_AFTER = 3;
/** What each developer does below: ana asks the routine call SUGGEST_AFTER times and builds; ben asks it once less, is denied a wipe, and leaves two asked calls unanswered. */
const ANA_CALLS = SUGGEST_AFTER + 1;
const BEN_CALLS = SUGGEST_AFTER - 1 + 3;

let workDir: string;
let browser: Browser;
const violations: string[] = [];

beforeAll(async () => {
  if (!fs.existsSync(ARBITER_BIN.replace('bin/arbiter.js', 'dist/bin.js')))
    throw new Error('the CLI is not built: run `npx tsc -b` first');
  if (!fs.existsSync(path.join(packageRoot, 'dist/index.html')))
    execFileSync('npm', ['run', 'build'], { cwd: packageRoot, stdio: 'ignore' });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-team-gate-'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  fs.mkdirSync(screenshots, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  expect(violations).toEqual([]);
});

interface Developer {
  readonly name: string;
  readonly key: string;
  readonly principal: string;
  /** HOME and ARBITER_HOME of this developer's machine: the hook's queue and policy cache live here. */
  readonly home: string;
  readonly project: string;
}

function developerEnv(developer: Developer): NodeJS.ProcessEnv {
  return {
    HOME: developer.home,
    ARBITER_HOME: path.join(developer.home, '.arbiter'),
    ARBITER_API_KEY: developer.key,
    // Each hook judges in its own process: no gate daemon outlives the test.
    ARBITER_GATE_DAEMON: 'off',
  };
}

let callCounter = 0;

/**
 * One hook event of a Bash call as Claude Code runs the hook on a developer's machine (PreToolUse,
 * then, when a person let the call run, PostToolUse); a hook that fails fails the test, with its output.
 */
async function runHook(
  developer: Developer,
  serverUrl: string,
  event: 'PreToolUse' | 'PostToolUse',
  command: string,
  toolUseId: string,
): Promise<CliRun> {
  const input = claudeCodeBashEvent(event, command, {
    session: `session-${developer.name}`,
    transcriptPath: path.join(developer.home, 'transcript.jsonl'),
    cwd: developer.project,
    toolUseId,
    ...(event === 'PostToolUse' ? { printed: 'added 1 package' } : {}),
  });
  const run = await gateHookProcess('claude-code', serverUrl, input, {
    env: developerEnv(developer),
    cwd: developer.project,
  });
  expect(
    run.code,
    `the ${event} hook of ${developer.name} for \`${command}\` failed: ${describeRun(run)}`,
  ).toBe(0);
  return run;
}

async function preToolUse(
  developer: Developer,
  serverUrl: string,
  command: string,
): Promise<{ decision: string; reason: string; toolUseId: string }> {
  const toolUseId = `toolu_${developer.name}_${++callCounter}`;
  const run = await runHook(developer, serverUrl, 'PreToolUse', command, toolUseId);
  return { ...hookDecision(run, `the PreToolUse hook of ${developer.name} for \`${command}\``), toolUseId };
}

async function postToolUse(
  developer: Developer,
  serverUrl: string,
  command: string,
  toolUseId: string,
): Promise<void> {
  await runHook(developer, serverUrl, 'PostToolUse', command, toolUseId);
}

/** A call the gate asks about, approved by the person: PreToolUse answers ask, the call runs, PostToolUse reports it. */
async function askedAndApproved(developer: Developer, serverUrl: string, command: string): Promise<void> {
  const pre = await preToolUse(developer, serverUrl, command);
  expect(
    pre.decision,
    `\`${command}\` for ${developer.name} should be asked about (reason: ${pre.reason})`,
  ).toBe('ask');
  await postToolUse(developer, serverUrl, command, pre.toolUseId);
}

/** `arbiter <args>` on a developer's machine, as a real subprocess. */
function arbiter(developer: Developer, args: readonly string[]): Promise<CliRun> {
  return runArbiter(args, { env: developerEnv(developer), cwd: workDir });
}

async function flush(developer: Developer, serverUrl: string): Promise<CliRun> {
  const run = await arbiter(developer, ['gate', 'report', 'flush', '--server', serverUrl]);
  expect(run.code, `\`arbiter gate report flush\` for ${developer.name} failed: ${describeRun(run)}`).toBe(0);
  return run;
}

interface QueueStatus {
  records: number;
  last_error: string | null;
  policy: { sha256: string; allow: number } | null;
}

async function queueStatus(developer: Developer): Promise<QueueStatus> {
  const run = await arbiter(developer, ['gate', 'report', 'status', '--json']);
  expect(run.code, `\`arbiter gate report status\` for ${developer.name} failed: ${describeRun(run)}`).toBe(
    0,
  );
  return JSON.parse(run.stdout) as QueueStatus;
}

async function getJson<T>(serverUrl: string, route: string, key: string): Promise<T> {
  const response = await fetch(`${serverUrl}${route}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${route} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function createMember(serverUrl: string, operatorKey: string, name: string): Promise<Developer> {
  const response = await fetch(`${serverUrl}/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ principal: name, role: 'member' }),
  });
  const body = (await response.json()) as { key: string; principal: { id: string } };
  if (response.status !== 201 && response.status !== 200)
    throw new Error(
      `creating the member key of ${name} answered ${response.status}: ${JSON.stringify(body)}`,
    );
  const home = path.join(workDir, name);
  const project = path.join(home, 'projects', `${name}-shop`);
  fs.mkdirSync(project, { recursive: true });
  return { name, key: body.key, principal: body.principal.id, home, project };
}

interface RecordRow {
  seq: number;
  principal: { id: string; name: string };
  record: {
    id: string;
    call: { command?: string };
    effective: string | null;
    decided_by: string;
    team_policy_sha256: string | null;
  };
  outcome: string;
}

async function openPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  return page;
}

async function signIn(page: Page, serverUrl: string, key: string): Promise<void> {
  await page.goto(`${serverUrl}/console/team`);
  const field = page.getByLabel('API key');
  await field.fill(key);
  await field.press('Enter');
  await page.getByRole('navigation', { name: 'pages' }).waitFor();
}

describe('the gate for a team, end to end', () => {
  it('two developers report through real hooks; an operator accepts the suggested rule in the console; the routine call is then allowed by the team and the dangerous one still denied', async () => {
    const dataDir = path.join(workDir, 'server-suggestions');
    const server: RunningServer = await startServer({ port: 0, dataDir, harness: false });
    try {
      const operatorKey = server.initialKey;
      if (operatorKey === null) throw new Error('a fresh data directory must give a first (operator) key');
      const ana = await createMember(server.url, operatorKey, 'dev-ana');
      const ben = await createMember(server.url, operatorKey, 'dev-ben');

      // Both developers at work, each on their own machine: routine installs the gate asks about
      // and a person approves, an ordinary build it allows, a destructive call it denies, and one
      // asked call nobody ran.
      // Calls of different kinds run side by side, as agents' calls do; each asked call's
      // PostToolUse follows its PreToolUse.
      await Promise.all([
        (async () => {
          for (let i = 0; i < SUGGEST_AFTER; i++) await askedAndApproved(ana, server.url, ROUTINE);
        })(),
        (async () => {
          const build = await preToolUse(ana, server.url, 'npm run build');
          expect(build.decision, `\`npm run build\`: ${build.reason}`).toBe('allow');
        })(),
        (async () => {
          for (let i = 0; i < SUGGEST_AFTER - 1; i++) await askedAndApproved(ben, server.url, ROUTINE);
        })(),
        (async () => {
          const wipe = await preToolUse(ben, server.url, 'rm -rf ~');
          expect(wipe.decision, `\`rm -rf ~\`: ${wipe.reason}`).toBe('deny');
          const unanswered = await preToolUse(ben, server.url, 'rm -rf dist');
          expect(unanswered.decision, `\`rm -rf dist\`: ${unanswered.reason}`).toBe('ask');
          // A call carrying a token, asked and never run: what reaches the server is redacted.
          const secret = await preToolUse(ben, server.url, WITH_TOKEN);
          expect(secret.decision, `the call with a token: ${secret.reason}`).toBe('ask');
        })(),
      ]);
      await Promise.all([flush(ana, server.url), flush(ben, server.url)]);

      // What the server holds, over the API: the operator reads both developers' rows.
      const records = await getJson<{ data: RecordRow[] }>(
        server.url,
        '/v1/gate/records?limit=100',
        operatorKey,
      );
      const byName = (name: string) => records.data.filter((row) => row.principal.name === name);
      expect(byName('dev-ana').length, 'dev-ana: one row a judged call').toBe(ANA_CALLS);
      expect(byName('dev-ben').length, 'dev-ben: one row a judged call').toBe(BEN_CALLS);
      const redacted = records.data.find((row) => row.record.call.command?.startsWith('git remote set-url'));
      expect(redacted, 'the call with a token should be reported').toBeDefined();
      expect(JSON.stringify(records.data), 'no token may reach the server').not.toContain(TOKEN);
      const routineRows = records.data.filter((row) => row.record.call.command === ROUTINE);
      expect(routineRows.map((row) => row.outcome)).toEqual(Array(2 * SUGGEST_AFTER - 1).fill('approved'));
      const suggestions = await getJson<{
        data: { id: string; rule: string; asked: number; approved: number; status: string }[];
      }>(server.url, '/v1/gate/suggestions', operatorKey);
      const suggestion = suggestions.data.find(
        (entry) => entry.status === 'suggested' && entry.rule.includes('npm install'),
      );
      if (!suggestion)
        throw new Error(
          `no rule was suggested for \`${ROUTINE}\`; the server suggests: ${JSON.stringify(suggestions.data)}`,
        );
      expect(suggestion.asked).toBe(suggestion.approved);
      expect(suggestion.asked).toBeGreaterThanOrEqual(SUGGEST_AFTER);
      const stats = await getJson<{
        per_day: { ALLOW: number; DENY: number; ASK: number }[];
        asked_programs: { program: string; asked: number; approved: number; declined: number }[];
      }>(server.url, '/v1/gate/stats', operatorKey);

      // The operator in the browser: both developers' rows, the plots, the suggestion accepted.
      const page = await openPage();
      await signIn(page, server.url, operatorKey);
      const rows = page.getByTestId('team-row');
      await expect
        .poll(() => rows.count(), { message: 'the team view should list every reported verdict' })
        .toBe(records.data.length);
      expect(await page.locator('[data-testid="team-row"][data-principal="dev-ana"]').count()).toBe(
        ANA_CALLS,
      );
      expect(await page.locator('[data-testid="team-row"][data-principal="dev-ben"]').count()).toBe(
        BEN_CALLS,
      );
      expect(await page.content(), 'no token may reach the page').not.toContain(TOKEN);
      // Newest first, as the API lists them; each row shows the call itself.
      const shownCalls = await page.getByTestId('team-call').allTextContents();
      expect(shownCalls).toEqual(records.data.map((row) => row.record.call.command));
      expect(await page.locator('[data-testid="team-row"][data-outcome="approved"]').count()).toBe(
        2 * SUGGEST_AFTER - 1,
      );
      const sum = (verdict: 'ALLOW' | 'DENY' | 'ASK') =>
        stats.per_day.reduce((total, day) => total + day[verdict], 0);
      expect(await page.locator('#per-day-desc').textContent()).toMatch(
        new RegExp(`: ${sum('ALLOW')} ALLOW, ${sum('ASK')} ASK, ${sum('DENY')} DENY$`),
      );
      expect(await page.getByTestId('approval-rate').textContent()).toContain(
        `${2 * SUGGEST_AFTER - 1} approved`,
      );
      // The plot's numbers as text: the table under the most-asked programs is the API's counts.
      await page.getByText('Asked programs as numbers').click();
      const programTable = page.getByRole('table', { name: 'asked programs' });
      const programRows = await programTable
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
        );
      expect(programRows.sort()).toEqual(
        stats.asked_programs
          .map((entry) => [
            entry.program,
            String(entry.asked),
            String(entry.approved),
            String(entry.declined),
          ])
          .sort(),
      );
      expect(programRows.find((row) => row[0] === 'npm')?.[2]).toBe(String(2 * SUGGEST_AFTER - 1));
      await page.getByText('Asked programs as numbers').click();
      await page.screenshot({ path: path.join(screenshots, 'team.png'), fullPage: true });

      // A developer's filter: the operator narrows the list to dev-ben.
      const filters = page.getByRole('form', { name: 'team filters' });
      await filters.locator('select[name="principal"]').selectOption({ label: 'dev-ben' });
      await filters.getByRole('button', { name: 'Filter' }).click();
      await expect
        .poll(() => page.locator('[data-testid="team-row"][data-principal="dev-ana"]').count())
        .toBe(0);
      expect(await rows.count()).toBe(BEN_CALLS);

      const offered = page.locator(`[data-testid="suggestion"][data-rule="${suggestion.rule}"]`);
      await offered.waitFor();
      expect(await offered.textContent()).toContain(ROUTINE);
      await page.screenshot({ path: path.join(screenshots, 'team-suggestions.png'), fullPage: true });
      // With the keyboard: the button is focused and Enter presses it.
      await offered.getByRole('button', { name: `Accept ${suggestion.rule}` }).focus();
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.getByTestId('team-policy-rules').textContent(), {
          message: 'the accepted rule should show as the team policy',
        })
        .toContain(suggestion.rule);
      const policy = await getJson<{ allow: string[]; sha256: string }>(
        server.url,
        '/v1/gate/policy',
        operatorKey,
      );
      expect(policy.allow).toContain(suggestion.rule);
      expect(await page.getByTestId('team-policy-sha256').textContent()).toBe(policy.sha256);
      await page.context().close();

      // Ben's hook fetches the new policy with its next flush; the routine call is then allowed
      // by the team without asking, and the dangerous variant is still denied.
      await flush(ben, server.url);
      expect(
        (await queueStatus(ben)).policy,
        "the flush should cache the policy the operator's decision made",
      ).toMatchObject({
        sha256: policy.sha256,
        allow: policy.allow.length,
      });
      const later = await preToolUse(ben, server.url, ROUTINE);
      expect(
        later.decision,
        `after the rule was accepted, \`${ROUTINE}\` should be allowed: ${later.reason}`,
      ).toBe('allow');
      const dangerous = await preToolUse(ben, server.url, DANGEROUS);
      expect(dangerous.decision, `a team rule must never turn a DENY into ALLOW: ${dangerous.reason}`).toBe(
        'deny',
      );
      await flush(ben, server.url);
      const benRows = await getJson<{ data: RecordRow[] }>(
        server.url,
        `/v1/gate/records?principal=${encodeURIComponent(ben.principal)}&limit=2`,
        operatorKey,
      );
      const [newest, allowed] = benRows.data;
      expect(newest?.record.call.command).toBe(DANGEROUS);
      expect(newest?.record.effective).toBe('DENY');
      expect(allowed?.record.call.command).toBe(ROUTINE);
      expect(allowed?.record).toMatchObject({
        effective: 'ALLOW',
        decided_by: 'team',
        team_policy_sha256: policy.sha256,
      });

      // A member reads its own rows only, and is told the suggestions are an operator's.
      const member = await openPage();
      await signIn(member, server.url, ana.key);
      await expect.poll(() => member.getByTestId('team-row').count()).toBe(ANA_CALLS);
      expect(await member.locator('[data-testid="team-row"]:not([data-principal="dev-ana"])').count()).toBe(
        0,
      );
      expect(await member.getByTestId('team-own-only').count()).toBe(1);
      expect(await member.getByTestId('suggestions-operator-only').textContent()).toContain('operator');
      await member.screenshot({ path: path.join(screenshots, 'team-member.png'), fullPage: true });
      await member.context().close();

      // A reporter key sends its hook's records and reads nothing: the console says so plainly.
      const created = await fetch(`${server.url}/v1/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ principal: 'ci-reporter', role: 'reporter' }),
      });
      const reporterKey = ((await created.json()) as { key?: string }).key;
      expect(reporterKey, `creating a reporter key answered ${created.status}`).toBeTruthy();
      const reporter = await openPage();
      await signIn(reporter, server.url, reporterKey ?? '');
      await expect.poll(() => reporter.getByTestId('team-no-read').textContent()).toContain('reporter');
      expect(await reporter.getByTestId('limited-key').textContent()).toContain('reporter');
      expect(await reporter.getByTestId('team-row').count()).toBe(0);
      await reporter.context().close();
    } finally {
      await server.close();
    }
  }, 240_000);

  it('queues while the server is down, replays after it restarts on the same data, and the chain verifies with every record once', async () => {
    const dataDir = path.join(workDir, 'server-restart');
    let server: RunningServer = await startServer({ port: 0, dataDir, harness: false });
    let running = true;
    const port = Number(new URL(server.url).port);
    try {
      const operatorKey = server.initialKey;
      if (operatorKey === null) throw new Error('a fresh data directory must give a first (operator) key');
      const cat = await createMember(server.url, operatorKey, 'dev-cat');

      // Reported while the server is up: one allowed call (one verdict record).
      await preToolUse(cat, server.url, 'npm run build');
      await flush(cat, server.url);
      const before = await getJson<{ ok: boolean; entries: number }>(
        server.url,
        '/v1/gate/audit/verify',
        cat.key,
      );
      expect(before).toMatchObject({ ok: true, entries: 1 });

      await server.close();
      running = false;
      // The server is down: the hooks still answer at once, and what they report waits on disk.
      const asked = await preToolUse(cat, server.url, ROUTINE);
      expect(asked.decision).toBe('ask');
      await postToolUse(cat, server.url, ROUTINE, asked.toolUseId);
      const denied = await preToolUse(cat, server.url, 'rm -rf ~');
      expect(denied.decision).toBe('deny');
      const downFlush = await arbiter(cat, ['gate', 'report', 'flush', '--server', server.url]);
      expect(
        downFlush.code,
        `a flush with the server down must fail and say so: ${describeRun(downFlush)}`,
      ).not.toBe(0);
      const waiting = await queueStatus(cat);
      expect(waiting.records, 'the queue should hold the 3 records made while the server was down').toBe(3);
      expect(
        waiting.last_error,
        'the failed flush should be recorded for `gate report status`',
      ).not.toBeNull();

      // A lost acknowledgement: the queue as it was before the replay is sent again afterwards.
      const queueFile = path.join(cat.home, '.arbiter', 'gate-reports', 'queue.jsonl');
      expect(fs.existsSync(queueFile), `the hook's queue should be at ${queueFile}`).toBe(true);
      const queued = fs.readFileSync(queueFile);

      server = await startServer({ port, dataDir, harness: false });
      running = true;
      const replay = await flush(cat, server.url);
      const afterReplay = await getJson<{ ok: boolean; entries: number; head: string }>(
        server.url,
        '/v1/gate/audit/verify',
        cat.key,
      );
      expect(afterReplay, `after the replay: ${describeRun(replay)}`).toMatchObject({ ok: true, entries: 4 });
      fs.writeFileSync(queueFile, queued);
      const again = await flush(cat, server.url);
      const afterAgain = await getJson<{ ok: boolean; entries: number; head: string }>(
        server.url,
        `/v1/gate/audit/verify?principal=${encodeURIComponent(cat.principal)}`,
        operatorKey,
      );
      expect(afterAgain, `a replayed queue must add nothing: ${describeRun(again)}`).toEqual(afterReplay);
      const rows = await getJson<{ data: RecordRow[] }>(server.url, '/v1/gate/records', cat.key);
      expect(rows.data.map((row) => [row.record.call.command, row.outcome])).toEqual([
        ['rm -rf ~', 'denied'],
        [ROUTINE, 'approved'],
        ['npm run build', 'allowed'],
      ]);
      expect(new Set(rows.data.map((row) => row.record.id)).size).toBe(3);
    } finally {
      if (running) await server.close();
    }
  }, 150_000);
});

/** A verdict record as a hook builds it, for the paging test, which needs more rows than hook processes are worth. */
function verdictRecord(
  index: number,
  effective: 'ALLOW' | 'DENY' | 'ASK',
  program: string,
): TeamVerdictRecord {
  const command = `${program} step-${index}`;
  return {
    kind: 'verdict',
    id: randomUUID(),
    time: new Date(Date.now() - (60 - index) * 1000).toISOString(),
    host: 'claude-code',
    session: 'session-ci',
    tool: 'Bash',
    call_key: teamCallKey('Bash', { command }),
    program,
    call: { command, summary: `Bash: ${command}` },
    project: 'ci-shop',
    verdict: effective,
    effective,
    rule: effective === 'ALLOW' ? 6 : effective === 'DENY' ? 2 : 5,
    decided_by: 'gate',
    reason: `test verdict ${index}`,
    answers: null,
    pack: { name: 'tool-gate', version: '1.0.0', sha256: 'a'.repeat(64) },
    call_sha256: 'b'.repeat(64),
    team_policy_sha256: null,
    model: null,
  };
}

// The paging, counting and day arithmetic are the store's SQL, which differs between the two
// backends (PostgreSQL answers COUNT as a bigint): the page is checked on both.
describe.each(['sqlite', 'postgres'] as const)('the team view over many records on %s', (backend) => {
  let cluster: ThrowawayPostgres | null = null;
  beforeAll(async () => {
    if (backend === 'postgres') cluster = await startThrowawayPostgres();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('pages with Load more in the order the API lists, filters by verdict and program, says when nothing matches, and rejects a suggestion', async () => {
    const dataDir = path.join(workDir, `server-paging-${backend}`);
    const database = cluster === null ? undefined : await cluster.createDatabase();
    const server = await startServer({ port: 0, dataDir, harness: false, ...(database ? { database } : {}) });
    try {
      const operatorKey = server.initialKey;
      if (operatorKey === null) throw new Error('a fresh data directory must give a first (operator) key');
      const created = await fetch(`${server.url}/v1/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ principal: 'ci-bot', role: 'reporter' }),
      });
      const reporterKey = ((await created.json()) as { key: string }).key;
      const verdicts = ['ALLOW', 'ALLOW', 'ASK', 'DENY'] as const;
      const programs = ['git', 'npm', 'make'];
      const records = Array.from({ length: 60 }, (_, index) =>
        verdictRecord(
          index,
          verdicts[index % verdicts.length] ?? 'ALLOW',
          programs[index % programs.length] ?? 'git',
        ),
      );
      const reported = await fetch(`${server.url}/v1/gate/reports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${reporterKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ records }),
      });
      expect(reported.status, await reported.clone().text()).toBe(200);
      expect(((await reported.json()) as { accepted: number }).accepted).toBe(60);
      const first = await getJson<{ data: RecordRow[]; next_after: string }>(
        server.url,
        '/v1/gate/records?limit=50',
        operatorKey,
      );
      const second = await getJson<{ data: RecordRow[] }>(
        server.url,
        `/v1/gate/records?limit=50&after=${first.next_after}`,
        operatorKey,
      );
      const apiOrder = [...first.data, ...second.data].map((row) => row.record.call.command);
      expect(apiOrder).toHaveLength(60);

      const page = await openPage();
      await signIn(page, server.url, operatorKey);
      const rows = page.getByTestId('team-row');
      await expect.poll(() => rows.count()).toBe(50);
      expect(await page.getByTestId('team-count').textContent()).toContain('more older ones');
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect.poll(() => rows.count()).toBe(60);
      expect(await page.getByTestId('team-call').allTextContents()).toEqual(apiOrder);
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

      const filters = page.getByRole('form', { name: 'team filters' });
      await filters.locator('select[name="verdict"]').selectOption('DENY');
      await filters.locator('input[name="program"]').fill('git');
      await filters.getByRole('button', { name: 'Filter' }).click();
      const expected = records.filter((record) => record.effective === 'DENY' && record.program === 'git');
      await expect.poll(() => rows.count()).toBe(expected.length);
      expect(
        (await page.getByTestId('team-verdict').allTextContents()).every((text) => text === 'DENY'),
      ).toBe(true);
      expect(await page.locator('#per-day-desc').textContent()).toMatch(
        new RegExp(`: 0 ALLOW, 0 ASK, ${expected.length} DENY$`),
      );
      // The plots add the API's counts up: they must be numbers on either backend.
      const stats = await getJson<{ per_day: Record<string, unknown>[]; approval: Record<string, unknown> }>(
        server.url,
        '/v1/gate/stats?verdict=DENY&program=git',
        operatorKey,
      );
      for (const day of stats.per_day)
        for (const verdict of ['ALLOW', 'DENY', 'ASK']) expect(typeof day[verdict]).toBe('number');
      expect(typeof stats.approval.asked).toBe('number');

      await filters.locator('input[name="program"]').fill('terraform');
      await filters.getByRole('button', { name: 'Filter' }).click();
      await expect.poll(() => page.getByTestId('team-empty').count()).toBe(1);
      expect(await rows.count()).toBe(0);

      await filters.locator('select[name="range"]').selectOption('custom');
      await filters.getByLabel('Since').fill('2026-11-02T00:00');
      await filters.getByLabel('Until').fill('2026-11-01T00:00');
      await filters.getByRole('button', { name: 'Filter' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('Since is after Until');

      // Three asked calls of one kind, each then run (an outcome record with the same call key):
      // a suggestion, which the operator rejects; the team policy stays empty.
      const asked = [0, 1, 2].map((index) => {
        const record = verdictRecord(100 + index, 'ASK', 'pip');
        const command = 'pip install requests';
        return {
          ...record,
          call_key: teamCallKey('Bash', { command }),
          call: { command, summary: `Bash: ${command}` },
        };
      });
      const ran = asked.map((record) => ({
        kind: 'outcome' as const,
        id: randomUUID(),
        time: new Date(Date.parse(record.time) + 500).toISOString(),
        host: record.host,
        session: record.session,
        tool: record.tool,
        call_key: record.call_key,
        outcome: 'ran' as const,
      }));
      const more = await fetch(`${server.url}/v1/gate/reports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${reporterKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ records: asked.flatMap((record, index) => [record, ran[index]]) }),
      });
      expect(more.status, await more.clone().text()).toBe(200);
      const suggested = await getJson<{ data: { rule: string; status: string }[] }>(
        server.url,
        '/v1/gate/suggestions',
        operatorKey,
      );
      const pip = suggested.data.find(
        (entry) => entry.status === 'suggested' && entry.rule.includes('pip install'),
      );
      if (!pip) throw new Error(`no rule was suggested for pip install: ${JSON.stringify(suggested.data)}`);
      await page.reload();
      const offered = page.locator(`[data-testid="suggestion"][data-rule="${pip.rule}"]`);
      await offered.waitFor();
      await offered.getByRole('button', { name: `Reject ${pip.rule}` }).click();
      await expect.poll(() => page.getByTestId('no-suggestions').count()).toBe(1);
      await page.getByText('Decided suggestions (1)').click();
      expect(await page.getByTestId('decided-suggestion').textContent()).toContain(`${pip.rule} rejected by`);
      expect(await page.getByTestId('team-policy').textContent()).toContain('No rule accepted yet');
      const policy = await getJson<{ allow: string[] }>(server.url, '/v1/gate/policy', operatorKey);
      expect(policy.allow).toEqual([]);
      await page.context().close();
    } finally {
      await server.close();
    }
  }, 60_000);
});
