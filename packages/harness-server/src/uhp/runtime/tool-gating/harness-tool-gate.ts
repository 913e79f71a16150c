import {
  AuditLog,
  createToolGate,
  guardGitPush,
  type StaticPolicyRules,
  type ToolGate,
  type ToolGateDecisionClient,
  type ToolGateMode,
  type ToolGateThresholdsInput,
  type ToolGateVerdict,
} from '@arbiter/tool-gate';
import type { SecondOpinionSettings } from './second-opinion-engine.js';

/** How the server gates the tool calls of its harnesses (server configuration, not the client's). */
export interface ToolGatingOptions {
  /** Static allow/ask/deny rules in Claude Code syntax, checked before the decision service. */
  readonly policy?: StaticPolicyRules;
  /** Runs are unattended: an ASK is refused unless this is true. Default false. */
  readonly allowAsk?: boolean;
  /** `shadow` records verdicts without acting on them. Default `enforce`. */
  readonly mode?: ToolGateMode;
  readonly thresholds?: ToolGateThresholdsInput;
  /** Protected branches for the `git push` guard of the shell tool; default main, master, release/*. */
  readonly protectedBranches?: readonly string[];
  /** A model for the analysis's second opinion (`second-opinion-engine.ts`). */
  readonly secondOpinion?: SecondOpinionSettings;
}

/** One proposed call, in the gate's (Claude Code) vocabulary: `Bash`, `Read`, `Write`, `mcp__server__tool`. */
export interface GatedCall {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
}

/** Who is calling and why: the audit log names the session and response of every verdict. */
export interface GateContext {
  readonly sessionId: string;
  readonly responseId: string;
  readonly callId: string;
  /** The task text of the turn, so the gate can judge whether the call is on task. */
  readonly task: string;
  /** The session workspace, the calls' working directory. */
  readonly cwd: string;
  /** The tools the harness offers, as permission rules (`Bash`, `Read`, `mcp__docs`). */
  readonly grant: readonly string[];
  readonly signal?: AbortSignal;
}

export type GateOutcome =
  | { readonly allowed: true; readonly verdict: ToolGateVerdict }
  | { readonly allowed: false; readonly verdict: ToolGateVerdict; readonly refusal: string };

/** One line of the UHP gate audit log: the verdict with the ids that place it in a run. */
export interface GateAuditRecord extends ToolGateVerdict {
  readonly session_id: string;
  readonly response_id: string;
  readonly call_id: string;
}

/**
 * The gate in front of every tool call a harness makes: static policy, then the decision service,
 * then the verdict acted on for an unattended run. Every verdict is appended to a hash-chained
 * audit log with the session and response ids. Refusals are worded for the model to read, since they
 * become the tool's result.
 */
export class HarnessToolGate {
  readonly auditLog: AuditLog<GateAuditRecord>;
  private readonly gate: ToolGate;
  private readonly allowAsk: boolean;
  private readonly protectedBranches: readonly string[] | undefined;

  constructor(client: ToolGateDecisionClient, auditLogPath: string, options: ToolGatingOptions = {}) {
    this.auditLog = new AuditLog<GateAuditRecord>(auditLogPath);
    this.allowAsk = options.allowAsk ?? false;
    this.protectedBranches = options.protectedBranches;
    this.gate = createToolGate({
      client,
      ...(options.policy === undefined ? {} : { policy: options.policy }),
      ...(options.mode === undefined ? {} : { mode: options.mode }),
      ...(options.thresholds === undefined ? {} : { thresholds: options.thresholds }),
    });
  }

  async review(call: GatedCall, context: GateContext): Promise<GateOutcome> {
    const verdict = await this.gate.check(
      {
        tool: call.tool,
        arguments: call.arguments,
        grant: [...context.grant],
        task: context.task.slice(0, 20_000),
        cwd: context.cwd,
      },
      context.signal === undefined ? {} : { signal: context.signal },
    );
    await this.auditLog.append({
      ...verdict,
      session_id: context.sessionId,
      response_id: context.responseId,
      call_id: context.callId,
    });
    if (verdict.effective === 'DENY')
      return {
        allowed: false,
        verdict,
        refusal: `refused by the tool gate: ${verdict.reason}. The call was not made; do not retry it, choose a safer way or explain why it is needed.`,
      };
    if (verdict.effective === 'ASK' && !this.allowAsk)
      return {
        allowed: false,
        verdict,
        refusal: `refused by the tool gate: this call needs a person's approval (${verdict.reason}), and this run is unattended, so it was not made. Choose another way or explain in your answer what approval you need.`,
      };
    // ALLOW, an ASK the configuration accepts, or no opinion from anyone: the harness granted the tool.
    return { allowed: true, verdict };
  }

  /**
   * Rule 7 of the gate, applied inside the shell tool after an ALLOW: a `git push` that forces,
   * targets a protected branch or an unknown remote is refused. Returns the refusal, or null.
   */
  guardShellCommand(command: string, cwd: string): string | null {
    if (!/\bgit\b/.test(command) || !/\bpush\b/.test(command)) return null;
    const result = guardGitPush({
      command,
      cwd,
      ...(this.protectedBranches === undefined ? {} : { protectedBranches: this.protectedBranches }),
    });
    if (result.allowed) return null;
    return `refused by the git push guard: ${result.violations.map((violation) => violation.message).join('; ')}. The command was not run.`;
  }
}
