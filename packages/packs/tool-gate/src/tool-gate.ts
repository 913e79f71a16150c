import type { Answer, PackReference, Question, State } from '@arbiter/decision';
import { z } from 'zod';
import type { AuditLog } from './audit/audit-log.js';
import {
  composeToolGate,
  type PolicyDecision,
  type ToolGateComposition,
} from './composition/compose-tool-gate.js';
import type { ToolGateAnswers } from './composition/tool-gate-answers.js';
import { canonicalSha256 } from './pack/canonical-sha256.js';
import { loadToolGatePack, TOOL_GATE_PACK, type ToolGatePack } from './pack/tool-gate-pack.js';
import { resolveToolGateThresholds, type ToolGateThresholdsInput } from './pack/tool-gate-thresholds.js';
import type { PermissionManager } from './permission/permission-manager.js';
import { StaticPolicy, type StaticPolicyRules } from './policy/static-policy.js';
import { type ToolGateState, type ToolGateStateInput, toolGateStateSchema } from './tool-gate-state.js';
import type { ToolGateMode, ToolGateVerdict } from './tool-gate-verdict.js';

/**
 * The state schema with zod's compiled fast path, built on the first check: every verdict validates
 * a state, and invalid states fall back to the regular parser, so their messages are unchanged.
 */
let compiledStateSchema: typeof toolGateStateSchema | undefined;

/**
 * What the gate needs of a decision client: `DecisionClient` from @arbiter/decision fits. It
 * must resolve, never throw, to answers or a visible skip.
 */
export interface ToolGateDecisionClient {
  decide(options: {
    state: State;
    questions: Readonly<Record<string, Question>>;
    model?: string;
    pack?: PackReference;
    signal?: AbortSignal;
  }): Promise<
    | { skipped: false; model: string; answers: Readonly<Record<string, Answer>> }
    | { skipped: true; reason: string; message: string }
  >;
}

export interface ToolGateOptions {
  client: ToolGateDecisionClient;
  /** Static allow/ask/deny rules (Claude Code syntax) or a prepared `StaticPolicy`. */
  policy?: StaticPolicy | StaticPolicyRules;
  permissionManager?: PermissionManager;
  /** A pack other than the published one (for example with other wording). */
  pack?: ToolGatePack;
  /** Threshold overrides; they make a new pack with its own hash. */
  thresholds?: ToolGateThresholdsInput;
  /** `shadow` decides and records, but lets the existing policy act. Default `enforce`. */
  mode?: ToolGateMode;
  auditLog?: AuditLog<ToolGateVerdict>;
  /** Model pin to ask for; default the server's. */
  model?: string;
  /**
   * A team's accepted allow rules (Claude Code syntax), as a team server serves them
   * (`TeamPolicy.allow`). A matching rule turns the analysis's ASK into ALLOW (`decided_by:
   * 'team'`), never a DENY and never a static ask or deny rule.
   */
  teamAllow?: readonly string[];
}

export interface ToolGate {
  readonly pack: ToolGatePack;
  readonly mode: ToolGateMode;
  check(state: ToolGateStateInput, options?: { signal?: AbortSignal }): Promise<ToolGateVerdict>;
}

/**
 * The tool gate: static policy and remembered permissions first, then the six questions through
 * the decision client, then composition into a verdict record (appended to the audit log when
 * one is given).
 *
 * @example
 * const gate = createToolGate({ client: new DecisionClient(), policy: { deny: ['Read(./.env)'] } });
 * const verdict = await gate.check({ tool: 'Bash', arguments: { command: 'ls' }, grant: ['Bash'], task: 'fix the build' });
 * if (verdict.effective === 'DENY') refuse(verdict.reason);
 */
export function createToolGate(options: ToolGateOptions): ToolGate {
  const basePack = options.pack ?? TOOL_GATE_PACK;
  const pack =
    options.thresholds === undefined
      ? basePack
      : loadToolGatePack({
          ...basePack.definition,
          thresholds: resolveToolGateThresholds(options.thresholds, basePack.definition.thresholds),
        });
  const { definition } = pack;
  const packReference = { name: definition.name, version: definition.version, sha256: pack.sha256 };
  const staticPolicy =
    options.policy === undefined
      ? null
      : options.policy instanceof StaticPolicy
        ? options.policy
        : new StaticPolicy(options.policy);
  const mode = options.mode ?? 'enforce';
  const teamPolicy =
    options.teamAllow === undefined || options.teamAllow.length === 0
      ? null
      : new StaticPolicy({ allow: options.teamAllow });

  async function check(
    input: ToolGateStateInput,
    checkOptions: { signal?: AbortSignal } = {},
  ): Promise<ToolGateVerdict> {
    const startedAt = performance.now();
    compiledStateSchema ??= z.compile(toolGateStateSchema);
    const parsed = compiledStateSchema.safeParse(input);
    if (!parsed.success)
      throw new TypeError(`invalid tool-gate state: ${parsed.error.issues.map(describeIssue).join('; ')}`);
    const state = parsed.data;
    const policy = await evaluatePolicy(state);
    const callSha256 = canonicalSha256(state);

    let composed: ToolGateComposition;
    let result: Awaited<ReturnType<ToolGateDecisionClient['decide']>> | null = null;
    if (policy.decision === 'deny') {
      composed = composeToolGate(
        { policy: 'deny', policyReason: denyReason(policy), skipped: false, answers: {} },
        definition.thresholds,
      );
    } else {
      result = await options.client.decide({
        state: state as State,
        questions: definition.questions,
        pack: packReference,
        model: options.model,
        signal: checkOptions.signal,
      });
      composed = result.skipped
        ? composeToolGate(
            { policy: policy.decision, skipped: true, skipReason: result.reason },
            definition.thresholds,
          )
        : composeToolGate(
            {
              policy: policy.decision,
              skipped: false,
              answers: result.answers as ToolGateAnswers,
              teamAllow: teamAllowRule(state),
            },
            definition.thresholds,
          );
    }
    const answered = result === null || result.skipped ? null : result;
    const skipped = result === null || !result.skipped ? null : result;
    // One literal with every member in a fixed order: spreading the parts into the record cost
    // about a fifth of an in-process verdict (bench/gate-speed.mjs).
    const verdict: ToolGateVerdict = {
      mode,
      tool: state.tool,
      call_sha256: callSha256,
      policy,
      thresholds: definition.thresholds,
      pack: packReference,
      verdict: composed.verdict,
      rule: composed.rule,
      decided_by: composed.decided_by,
      reason: composed.reason,
      effective:
        policy.decision === 'deny'
          ? 'DENY'
          : mode === 'enforce'
            ? composed.verdict
            : policyVerdict(policy.decision),
      answers: answered === null ? null : (answered.answers as ToolGateAnswers),
      skipped: skipped !== null,
      skip_reason: skipped === null ? null : skipped.reason,
      skip_message: skipped === null ? null : skipped.message,
      model: answered === null ? null : answered.model,
      latency_ms: round(performance.now() - startedAt),
    };
    if (options.auditLog !== undefined) await options.auditLog.append(verdict);
    return verdict;
  }

  /** The team allow rule covering the call, or null; the composition decides whether it counts. */
  function teamAllowRule(state: ToolGateState): string | null {
    if (teamPolicy === null) return null;
    const match = teamPolicy.evaluate({
      tool: state.tool,
      arguments: state.arguments,
      ...(state.cwd === undefined ? {} : { cwd: state.cwd }),
    });
    return match.decision === 'allow' ? match.rule : null;
  }

  async function evaluatePolicy(state: ToolGateState): Promise<ToolGateVerdict['policy']> {
    const call = {
      tool: state.tool,
      arguments: state.arguments,
      ...(state.cwd === undefined ? {} : { cwd: state.cwd }),
    };
    const fromStatic = staticPolicy?.evaluate(call) ?? null;
    if (fromStatic?.decision === 'deny') return { decision: 'deny', rule: fromStatic.rule, source: 'static' };
    const remembered = (await options.permissionManager?.lookup(call)) ?? null;
    if (remembered?.decision === 'deny')
      return { decision: 'deny', rule: remembered.rule, source: 'manager' };
    if (fromStatic?.decision === 'ask') return { decision: 'ask', rule: fromStatic.rule, source: 'static' };
    if (remembered?.decision === 'allow')
      return { decision: 'allow', rule: remembered.rule, source: 'manager' };
    if (fromStatic === null || fromStatic.decision === 'none') return NO_POLICY;
    return { decision: fromStatic.decision, rule: fromStatic.rule, source: 'static' };
  }

  return { pack, mode, check };
}

/** Neither the static policy nor a remembered permission has a say; shared, as records are never mutated. */
const NO_POLICY: ToolGateVerdict['policy'] = Object.freeze({ decision: 'none', rule: null, source: null });

function denyReason(policy: ToolGateVerdict['policy']): string {
  const who = policy.source === 'manager' ? 'a remembered denial' : 'the static policy';
  return `denied by ${who}${policy.rule === null ? '' : ` (${policy.rule})`}`;
}

function policyVerdict(decision: PolicyDecision): ToolGateVerdict['effective'] {
  return decision === 'deny' ? 'DENY' : decision === 'ask' ? 'ASK' : decision === 'allow' ? 'ALLOW' : null;
}

function describeIssue(issue: { path: PropertyKey[]; message: string }): string {
  return issue.path.length === 0 ? issue.message : `${issue.path.map(String).join('.')}: ${issue.message}`;
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;
