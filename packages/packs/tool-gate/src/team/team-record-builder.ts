import { randomUUID } from 'node:crypto';
import { redact, redactState } from '@arbiter/decision';
import type { HostName } from '../hosts/host-hook.js';
import { segmentShellCommand } from '../policy/shell-segments.js';
import { viewToolCall } from '../policy/tool-call-view.js';
import type { ToolGateVerdict } from '../tool-gate-verdict.js';
import { teamCallKey } from './team-call-key.js';
import {
  TEAM_REPORT_LIMITS,
  type TeamCall,
  type TeamOutcomeRecord,
  type TeamPolicy,
  type TeamVerdictRecord,
} from './team-report.js';

/** The call as the host sent it: the tool, its arguments, the directory it runs in. */
export interface TeamRecordCall {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly cwd?: string;
}

/** What every record needs besides the call; `id` and `now` are injectable for tests. */
export interface TeamRecordContext {
  readonly host: HostName;
  readonly session: string | null;
  readonly id?: string;
  readonly now?: Date;
}

/**
 * The record of one verdict as it may leave the developer's machine (issue 32): the command,
 * path, URL and summary passed through `redact` and cut to `TEAM_REPORT_LIMITS`; the `cwd`
 * reduced to its last component unless the team policy says `report_cwd: "full"`; the answers
 * without anything but numbers and choices. The call key is computed
 * from the arguments as the host sent them, so the after-tool event of the same call finds it.
 */
export function buildTeamVerdictRecord(
  context: TeamRecordContext,
  call: TeamRecordCall,
  verdict: ToolGateVerdict,
  policy: Pick<TeamPolicy, 'sha256' | 'report_cwd'> | null,
): TeamVerdictRecord {
  const { view, teamCall } = describeCall(call);
  return {
    kind: 'verdict',
    ...recordBase(context, call),
    program: view.kind === 'shell' && view.command !== null ? programOf(view.command) : null,
    call: teamCall,
    project: projectOf(call.cwd, policy?.report_cwd ?? 'project'),
    verdict: verdict.verdict,
    effective: verdict.effective,
    rule: verdict.rule,
    decided_by: verdict.decided_by,
    reason: cut(redact(verdict.reason), TEAM_REPORT_LIMITS.reasonChars),
    answers: verdict.answers === null ? null : reportedAnswers(verdict.answers),
    pack: {
      name: cut(verdict.pack.name, TEAM_REPORT_LIMITS.nameChars),
      version: cut(verdict.pack.version, TEAM_REPORT_LIMITS.nameChars),
      sha256: verdict.pack.sha256,
    },
    call_sha256: verdict.call_sha256,
    team_policy_sha256: policy?.sha256 ?? null,
    model: verdict.model === null ? null : nameOrNull(verdict.model),
  };
}

/** The record that a call ran (the host's after-tool event), joined to its verdict by the call key. */
export function buildTeamOutcomeRecord(context: TeamRecordContext, call: TeamRecordCall): TeamOutcomeRecord {
  return { kind: 'outcome', ...recordBase(context, call), outcome: 'ran' };
}

function recordBase(context: TeamRecordContext, call: TeamRecordCall) {
  return {
    id: context.id ?? randomUUID(),
    time: (context.now ?? new Date()).toISOString(),
    host: context.host,
    session: context.session === null ? null : nameOrNull(redact(context.session)),
    tool: cut(call.tool, TEAM_REPORT_LIMITS.nameChars) || 'unknown',
    call_key: teamCallKey(call.tool, call.arguments),
  };
}

function describeCall(call: TeamRecordCall): { view: ReturnType<typeof viewToolCall>; teamCall: TeamCall } {
  const view = viewToolCall(call.tool, call.arguments as Record<string, unknown>);
  const tool = cut(call.tool, TEAM_REPORT_LIMITS.nameChars);
  if (view.kind === 'shell' && view.command !== null) {
    const command = redact(view.command);
    return {
      view,
      teamCall: {
        command: cut(command, TEAM_REPORT_LIMITS.commandChars),
        summary: cut(`${tool}: ${oneLine(command)}`, TEAM_REPORT_LIMITS.summaryChars),
      },
    };
  }
  if ((view.kind === 'read' || view.kind === 'edit') && view.path !== null) {
    const path = redact(view.path);
    return {
      view,
      teamCall: {
        path: cut(path, TEAM_REPORT_LIMITS.pathChars),
        summary: cut(`${tool} ${oneLine(path)}`, TEAM_REPORT_LIMITS.summaryChars),
      },
    };
  }
  if (view.kind === 'fetch' && view.url !== null) {
    const url = redact(view.url);
    return {
      view,
      teamCall: {
        url: cut(url, TEAM_REPORT_LIMITS.urlChars),
        summary: cut(`${tool} ${oneLine(url)}`, TEAM_REPORT_LIMITS.summaryChars),
      },
    };
  }
  // Other tools (MCP among them): the arguments as JSON, values under secret-named keys replaced
  // whole and every string redacted, cut to the summary's length.
  const args = JSON.stringify(redactState(call.arguments as Record<string, unknown>)) ?? '{}';
  return { view, teamCall: { summary: cut(`${tool} ${args}`, TEAM_REPORT_LIMITS.summaryChars) } };
}

/**
 * The first program of a shell line: `FOO=1 /usr/bin/npm run build && x` → `npm`. The line is
 * redacted first, whole: a word such as `redis://user:password@host` redacts only in its context.
 */
export function programOf(command: string): string | null {
  const first = segmentShellCommand(redact(command)).segments[0];
  if (first === undefined) return null;
  const words = first.split(/\s+/).filter((word) => word !== '');
  const word = words.find((candidate) => !/^[A-Za-z_]\w*=/.test(candidate));
  if (word === undefined) return null;
  const bare = word.replace(/^['"]|['"]$/g, '');
  const program = bare.slice(bare.lastIndexOf('/') + 1);
  return program === '' ? null : nameOrNull(program);
}

/** The project's name (the `cwd`'s last component), or the whole `cwd` under `report_cwd: "full"`. */
export function projectOf(cwd: string | undefined, reportCwd: TeamPolicy['report_cwd']): string | null {
  if (cwd === undefined || cwd === '') return null;
  if (reportCwd === 'full') return cut(redact(cwd), TEAM_REPORT_LIMITS.projectChars);
  const parts = cwd.split(/[\\/]+/).filter((part) => part !== '');
  const last = parts.at(-1);
  return last === undefined ? null : cut(redact(last), TEAM_REPORT_LIMITS.projectChars);
}

/**
 * The answers' numbers and choices, and which engine answered; nothing else. Not the evidence
 * codes: the analysis builds some of them from the call's own words (an option's value, a
 * header), in shapes that redaction does not recognise, so they stay on the machine.
 */
function reportedAnswers(answers: NonNullable<ToolGateVerdict['answers']>): Record<string, unknown> {
  const reported: Record<string, unknown> = {};
  for (const [id, answer] of Object.entries(answers)) {
    if (answer === undefined) continue;
    const meta =
      answer.arbiter === undefined
        ? undefined
        : {
            engine: cut(answer.arbiter.engine, TEAM_REPORT_LIMITS.nameChars),
            abstained: answer.arbiter.abstained,
          };
    reported[id] =
      answer.type === 'noul'
        ? { type: 'noul', noul: answer.noul, ...(meta === undefined ? {} : { arbiter: meta }) }
        : {
            type: 'choice',
            choice: cut(answer.choice, TEAM_REPORT_LIMITS.nameChars),
            confidence: answer.confidence,
            probabilities: answer.probabilities,
            ...(meta === undefined ? {} : { arbiter: meta }),
          };
  }
  return reported;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Cuts after redaction, so a cut can shorten a marker but never reveal part of a secret. Every
 * string of a record passes here; U+0000 becomes U+FFFD, since the server refuses a record with
 * one (PostgreSQL cannot store it) and a refused record would hold up the queue behind it.
 */
function cut(text: string, limit: number): string {
  const clean = text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
  return clean.length <= limit ? clean : `${clean.slice(0, limit - 1)}…`;
}

function nameOrNull(text: string): string | null {
  const value = cut(text, TEAM_REPORT_LIMITS.nameChars);
  return value === '' ? null : value;
}
