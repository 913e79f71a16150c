import { describe, expect, it } from 'vitest';
import { SECRET_CORPUS } from '../../../../decision/test/support/secret-corpus.js';
import { createToolGate, type ToolGateDecisionClient } from '../tool-gate.js';
import type { ToolGateVerdict } from '../tool-gate-verdict.js';
import { teamCallKey } from './team-call-key.js';
import { teamPolicySha256 } from './team-policy-hash.js';
import {
  buildTeamOutcomeRecord,
  buildTeamVerdictRecord,
  programOf,
  projectOf,
} from './team-record-builder.js';
import { TEAM_REPORT_LIMITS, teamOutcomeRecordSchema, teamVerdictRecordSchema } from './team-report.js';

/**
 * Answers that make the analysis ask (rule 5), with evidence codes that quote the call, as the
 * built-in engine's codes sometimes do (`cli.X-API-Key:.additive:<value>`).
 */
const asking: ToolGateDecisionClient = {
  async decide({ state }) {
    const noul = (value: number) => ({
      type: 'noul' as const,
      noul: value,
      arbiter: {
        engine: 'fake',
        abstained: false,
        evidence: [`args:${JSON.stringify((state as { arguments?: unknown }).arguments)}`],
      },
    });
    return {
      skipped: false,
      model: 'builtin',
      answers: {
        in_grant: noul(0.9),
        args_plausible: noul(0.9),
        on_task: noul(0.9),
        destructive: noul(0.1),
        exfil_risk: noul(0.1),
        disposition: {
          type: 'choice',
          choice: 'ask',
          confidence: 0.7,
          probabilities: { allow: 0.2, ask: 0.7, deny: 0.1 },
        },
      },
    };
  },
};

async function judge(
  tool: string,
  args: Record<string, unknown>,
  teamAllow?: string[],
): Promise<ToolGateVerdict> {
  const gate = createToolGate({ client: asking, ...(teamAllow === undefined ? {} : { teamAllow }) });
  return gate.check({ tool, arguments: args, grant: [tool], task: 't', cwd: '/home/alice/src/acme-shop' });
}

const context = { host: 'claude-code' as const, session: 'session-1' };
const policy = { version: 1 as const, allow: ['Bash(terraform plan:*)'], report_cwd: 'project' as const };
const cachedPolicy = { ...policy, sha256: teamPolicySha256(policy) };

describe('buildTeamVerdictRecord', () => {
  it('builds a record the server accepts, with the call, the verdict and the policy hash', async () => {
    const args = { command: 'terraform plan -out tf.plan && echo done' };
    const call = { tool: 'Bash', arguments: args, cwd: '/home/alice/src/acme-shop/' };
    const verdict = await judge('Bash', args, ['Bash(terraform plan:*)', 'Bash(echo:*)']);
    const record = buildTeamVerdictRecord(
      { ...context, id: '5b0d7c43-4f57-4c8e-9d57-3f5ad6c3e001', now: new Date('2026-11-28T07:00:00Z') },
      call,
      verdict,
      cachedPolicy,
    );
    expect(teamVerdictRecordSchema.parse(record)).toEqual(record);
    expect(record).toMatchObject({
      kind: 'verdict',
      id: '5b0d7c43-4f57-4c8e-9d57-3f5ad6c3e001',
      time: '2026-11-28T07:00:00.000Z',
      host: 'claude-code',
      session: 'session-1',
      tool: 'Bash',
      call_key: teamCallKey('Bash', args),
      program: 'terraform',
      call: { command: args.command, summary: `Bash: ${args.command}` },
      project: 'acme-shop',
      verdict: 'ALLOW',
      effective: 'ALLOW',
      rule: 5,
      decided_by: 'team',
      call_sha256: verdict.call_sha256,
      team_policy_sha256: cachedPolicy.sha256,
      model: 'builtin',
    });
    expect(record.answers).toMatchObject({
      destructive: { type: 'noul', noul: 0.1, arbiter: { engine: 'fake', abstained: false } },
      disposition: { type: 'choice', choice: 'ask', confidence: 0.7 },
    });
    // Evidence codes can hold the call's own words: they stay on the machine.
    expect(JSON.stringify(record.answers)).not.toContain('evidence');
  });

  it('says null for the policy hash when no policy is cached', async () => {
    const args = { command: 'ls' };
    const record = buildTeamVerdictRecord(
      context,
      { tool: 'Bash', arguments: args },
      await judge('Bash', args),
      null,
    );
    expect(record.team_policy_sha256).toBeNull();
    expect(record.project).toBeNull();
    expect(teamVerdictRecordSchema.safeParse(record).success).toBe(true);
  });

  it('joins an outcome to its verdict by the call key of the unredacted arguments', async () => {
    const secret = SECRET_CORPUS.find(([shape]) => shape === 'GitHub classic token')![2];
    const args = { command: `git clone https://${secret}@github.com/o/r` };
    const verdict = buildTeamVerdictRecord(
      context,
      { tool: 'Bash', arguments: args },
      await judge('Bash', args),
      null,
    );
    const outcome = buildTeamOutcomeRecord(context, { tool: 'Bash', arguments: { ...args } });
    expect(teamOutcomeRecordSchema.parse(outcome)).toEqual(outcome);
    expect(outcome.call_key).toBe(verdict.call_key);
    expect(outcome.id).not.toBe(verdict.id);
    expect(verdict.call.command).toBe('git clone https://[REDACTED:github-token]@github.com/o/r');
  });

  it('lets no secret of the redaction corpus into a record, whichever member carries it', async () => {
    expect(SECRET_CORPUS.length).toBeGreaterThan(50);
    for (const [shape, template, secret] of SECRET_CORPUS) {
      const text = template.replace('{s}', secret);
      const calls: Array<[string, Record<string, unknown>]> = [
        ['Bash', { command: text }],
        ['run_shell_command', { command: text }],
        ['Read', { file_path: text }],
        ['WebFetch', { url: text, prompt: 'summarise' }],
        ['mcp__db__query', { sql: text, options: { password: secret } }],
      ];
      for (const [tool, args] of calls) {
        const verdict = await judge(tool, args);
        const record = buildTeamVerdictRecord(
          { ...context, session: text },
          { tool, arguments: args, cwd: `/srv/${text}` },
          { ...verdict, reason: `${verdict.reason}\n${text}` },
          { ...cachedPolicy, report_cwd: 'full' },
        );
        const sent = JSON.stringify(record);
        expect(sent, `${shape} through ${tool}`).not.toContain(secret);
        expect(teamVerdictRecordSchema.safeParse(record).success, `${shape} through ${tool}`).toBe(true);
      }
    }
  });

  it('cuts every member to the limits the server enforces', async () => {
    const long = `npm run build -- ${'x'.repeat(20_000)}`;
    const args = { command: long };
    const record = buildTeamVerdictRecord(
      { ...context, session: 's'.repeat(500) },
      { tool: 'Bash', arguments: args, cwd: `/${'p'.repeat(5_000)}` },
      await judge('Bash', args),
      null,
    );
    expect(record.call.command).toHaveLength(TEAM_REPORT_LIMITS.commandChars);
    expect(record.call.summary).toHaveLength(TEAM_REPORT_LIMITS.summaryChars);
    expect(record.session).toHaveLength(TEAM_REPORT_LIMITS.nameChars);
    expect(record.project).toHaveLength(TEAM_REPORT_LIMITS.projectChars);
    expect(teamVerdictRecordSchema.safeParse(record).success).toBe(true);
  });
});

describe('NUL characters', () => {
  it('become U+FFFD, which the server stores (it refuses U+0000)', async () => {
    const args = { command: 'printf "a\u0000b"' };
    const record = buildTeamVerdictRecord(
      { ...context, session: 's\u0000' },
      { tool: 'Bash', arguments: args, cwd: '/p/acme\u0000' },
      await judge('Bash', args),
      null,
    );
    expect(JSON.stringify(record)).not.toContain('\\u0000');
    expect(record).toMatchObject({
      session: 's\uFFFD',
      project: 'acme\uFFFD',
      call: { command: 'printf "a\uFFFDb"' },
    });
    expect(record.call_key).toBe(teamCallKey('Bash', args));
  });
});

describe('projectOf', () => {
  it("reduces the cwd to the project's name unless the policy allows the whole path", () => {
    expect(projectOf('/home/alice/src/acme-shop', 'project')).toBe('acme-shop');
    expect(projectOf('/home/alice/src/acme-shop/', 'project')).toBe('acme-shop');
    expect(projectOf('C:\\Users\\alice\\acme-shop', 'project')).toBe('acme-shop');
    expect(projectOf('/home/alice/src/acme-shop', 'full')).toBe('/home/alice/src/acme-shop');
    expect(projectOf('/', 'project')).toBeNull();
    expect(projectOf(undefined, 'project')).toBeNull();
  });
});

describe('programOf', () => {
  it('names the first program of the line, past assignments and directories', () => {
    expect(programOf('npm run build')).toBe('npm');
    expect(programOf('CI=1 NODE_ENV=test ./node_modules/.bin/vitest run')).toBe('vitest');
    expect(programOf('  git status && rm -rf x')).toBe('git');
    expect(programOf('')).toBeNull();
  });
});
