import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@arbiter/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, type RunArbiterOptions, runArbiter } from './support/run-arbiter.js';

// The real Arbiter server (Decision API + UHP on the offline model) in this process, and the built
// CLI (`npx tsc -b` first) as a subprocess talking to it over loopback.

function runCli(args: string[], options: Pick<RunArbiterOptions, 'interrupt'> = {}): Promise<CliRun> {
  // ARBITER_API_KEY: the server runs without auth and ignores it; the HTTP transport wants one.
  return runArbiter(args, { ...options, env: { ARBITER_API_KEY: 'unused-local-key', HOME: tmpdir() } });
}

// Level descriptions and work share words on purpose: the built-in engine weighs lexical evidence.
const RUBRIC = [
  'name: essay',
  'version: 1.0.0',
  'criteria:',
  '  - id: evidence',
  '    type: score',
  '    question: How is the claim supported?',
  '    levels:',
  '      - The claim stands alone, unsupported.',
  '      - Survey figures and cited sources support the claim.',
  '    pass_score: 0.6',
  '    required: true',
  '  - id: conclusion',
  '    type: noul',
  '    statement: The essay ends with a conclusion.',
  '    "true": a conclusion summarises the argument',
  '    "false": the essay stops abruptly',
  '    pass_probability: 0.6',
  'outcome:',
  '  min_confidence: 0.05',
  '  revision_score: 0.4',
].join('\n');

/** Polls until `check` holds (a cancelled task settles asynchronously on the server). */
async function until(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

const DRAFT =
  'My claim: remote work raises productivity; the claim stands alone. In conclusion, this summarises the argument.';
const REVISED =
  'My claim: remote work raises productivity. Survey figures and cited sources support the claim. In conclusion, this summarises the argument.';

describe('arbiter grade --revise-with against the real UHP server (offline model)', () => {
  let server: RunningServer;
  let directory = '';
  let rubricPath = '';
  let harnessURL = '';

  /** Starts a UHP task on the offline model and returns its response id. */
  async function startTask(input: string): Promise<string> {
    const response = await fetch(`${harnessURL}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'uhp-version': '2026-08-11' },
      body: JSON.stringify({ input }),
    });
    const body = (await response.json()) as { id: string; status: string };
    expect(body.status).toBe('completed');
    return body.id;
  }

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'arbiter-grade-revision-'));
    server = await startServer({ port: 0, dataDir: join(directory, 'data'), auth: false });
    harnessURL = `${server.url}/api/harness`;
    rubricPath = join(directory, 'essay.yaml');
    await writeFile(rubricPath, RUBRIC);
  });

  afterAll(async () => {
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('sends feedback into the session, grades the revised artifact and stops when satisfied', async () => {
    const responseId = await startTask(`@write essay.md <<<${DRAFT}>>>\n@say Draft written to essay.md.`);
    const run = await runCli([
      'grade',
      '--rubric',
      rubricPath,
      '--url',
      server.url,
      '--revise-with',
      responseId,
      '--uhp-url',
      harnessURL,
      '--artifact',
      'essay.md',
      '--revision-instructions',
      `@write essay.md <<<${REVISED}>>>\n@say Revised essay.md.`,
      '--json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.outcome).toBe('satisfied');
    expect(report.revision.stop).toBe('satisfied');
    const rounds = report.revision.rounds as {
      round: number;
      responseId: string;
      grade: { outcome: string; weightedScore: number; model: string };
      feedback: { source: string; text: string } | null;
    }[];
    expect(rounds.map((round) => [round.round, round.grade.outcome])).toEqual([
      [0, 'needs_revision'],
      [1, 'satisfied'],
    ]);
    expect(rounds[0]?.responseId).toBe(responseId);
    expect(rounds[1]?.responseId).not.toBe(responseId);
    expect(rounds[0]?.grade.model).toBe('arbiter-1.0.0');
    expect(rounds[0]?.feedback?.text).toContain(
      'Needed: "Survey figures and cited sources support the claim."',
    );
    expect(rounds[1]?.feedback).toBeNull();
    expect(rounds[1]?.grade.weightedScore).toBeGreaterThan(rounds[0]?.grade.weightedScore ?? 1);

    // The feedback really was the next turn of the same session.
    const revision = await fetch(`${harnessURL}/v1/responses/${rounds[1]?.responseId}`, {
      headers: { 'uhp-version': '2026-08-11' },
    });
    const revisionBody = (await revision.json()) as { previous_response_id: string };
    expect(revisionBody.previous_response_id).toBe(responseId);
    const input = await fetch(`${harnessURL}/v1/responses/${rounds[1]?.responseId}/input_items`, {
      headers: { 'uhp-version': '2026-08-11' },
    });
    expect(JSON.stringify(await input.json())).toContain('evidence (required): How is the claim supported?');
  });

  it('grades the final message and stops when the weighted score stops rising', async () => {
    const responseId = await startTask(`@say ${DRAFT}`);
    const run = await runCli([
      'grade',
      '--rubric',
      rubricPath,
      '--revise-with',
      responseId,
      '--uhp-url',
      harnessURL,
      '--revision-instructions',
      `@say ${DRAFT}`,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`── round 0 (${responseId}) ──`);
    expect(run.stdout).toMatch(/── round 1 \(resp_\w+\) ──/);
    expect(run.stdout).not.toContain('── round 2');
    expect(run.stdout).toContain('stopped: no_improvement after 1 revision; final outcome: needs_revision');
  });

  it('rejects --max-rounds 0 and reports a failed revision turn without hiding it', async () => {
    const capped = await runCli([
      'grade',
      '--rubric',
      rubricPath,
      '--revise-with',
      'resp_unused',
      '--uhp-url',
      harnessURL,
      '--max-rounds',
      '0',
    ]);
    expect(capped.code).toBe(3);
    expect(capped.stderr).toContain("option '--max-rounds <n>' argument '0' is invalid");

    const failing = await runCli([
      'grade',
      '--rubric',
      rubricPath,
      '--revise-with',
      await startTask(`@say ${DRAFT}`),
      '--uhp-url',
      harnessURL,
      '--revision-instructions',
      '@fail the agent gave up',
    ]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain(
      'stopped: revision_failed after 0 revisions; final outcome: needs_revision',
    );
    expect(failing.stderr).toMatch(/the revision failed: UHP response resp_\w+ ended failed: .*gave up/);
  });

  it('cancels the running revision turn on the server when interrupted', async () => {
    const responseId = await startTask(`@say ${DRAFT}`);
    const headers = { 'uhp-version': '2026-08-11' };
    const first = (await (await fetch(`${harnessURL}/v1/responses/${responseId}`, { headers })).json()) as {
      metadata: { session_id: string };
    };
    const lastTurn = async () => {
      const listing = await fetch(`${harnessURL}/v1/sessions/${first.metadata.session_id}/turns`, {
        headers,
      });
      const turnId = ((await listing.json()) as { turns: { response_id: string }[] }).turns.at(
        -1,
      )?.response_id;
      const turn = await fetch(`${harnessURL}/v1/responses/${turnId}`, { headers });
      return (await turn.json()) as { id: string; status: string };
    };
    const run = await runCli(
      [
        'grade',
        '--rubric',
        rubricPath,
        '--revise-with',
        responseId,
        '--uhp-url',
        harnessURL,
        '--revision-instructions',
        '@sleep 60000',
      ],
      {
        interrupt: {
          when: 'feedback (from the rubric):',
          // Once the revision turn is running on the server, so there is something to cancel.
          ready: () => until(async () => (await lastTurn()).status === 'in_progress'),
        },
      },
    );
    expect(run, run.stderr + run.stdout).toMatchObject({ code: 130 });
    expect(run.stderr).toContain('arbiter grade: interrupted; the revision turn was cancelled');
    await until(async () => {
      const turn = await lastTurn();
      return turn.id !== responseId && turn.status === 'cancelled';
    });
  });

  it('names the problem when the response does not exist or has no such artifact', async () => {
    const unknown = await runCli([
      'grade',
      '--rubric',
      rubricPath,
      '--revise-with',
      'resp_missing',
      '--uhp-url',
      harnessURL,
    ]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('arbiter grade: --revise-with resp_missing: cannot read the work:');

    const responseId = await startTask(`@say ${DRAFT}`);
    const noArtifact = await runCli([
      'grade',
      '--rubric',
      rubricPath,
      '--revise-with',
      responseId,
      '--uhp-url',
      harnessURL,
      '--artifact',
      'essay.md',
    ]);
    expect(noArtifact.code).toBe(3);
    expect(noArtifact.stderr).toContain(`has no artifact named essay.md`);
  });
});
