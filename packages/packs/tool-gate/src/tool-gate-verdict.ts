import type { PolicyDecision, ToolGateVerdictValue } from './composition/compose-tool-gate.js';
import type { ToolGateAnswers } from './composition/tool-gate-answers.js';
import type { ToolGateThresholds } from './pack/tool-gate-thresholds.js';

export type ToolGateMode = 'enforce' | 'shadow';

/**
 * The record of one gate decision: what the gate decided and why, with the evidence an audit
 * needs to replay it (the pack's hash, the thresholds, the answers, the model pin). It never
 * carries the call's arguments, only their hash, so secrets in a command stay out of logs.
 */
export interface ToolGateVerdict {
  /** The gate's verdict; null when neither the gate nor the existing policy decided. */
  readonly verdict: ToolGateVerdictValue | null;
  /** What the host should do: the verdict in enforce mode, the existing policy's decision in shadow mode. */
  readonly effective: ToolGateVerdictValue | null;
  /** The composition rule that fired (1–6), or null for no opinion. */
  readonly rule: 1 | 2 | 3 | 4 | 5 | 6 | null;
  /** `team`: a team policy's allow rule turned the analysis's ASK into ALLOW. */
  readonly decided_by: 'gate' | 'policy' | 'team' | 'none';
  readonly reason: string;
  readonly mode: ToolGateMode;
  readonly tool: string;
  /** sha256 of the canonical JSON of the state that was judged. */
  readonly call_sha256: string;
  readonly policy: {
    readonly decision: PolicyDecision;
    readonly rule: string | null;
    readonly source: 'static' | 'manager' | null;
  };
  readonly answers: ToolGateAnswers | null;
  readonly thresholds: ToolGateThresholds;
  readonly pack: { readonly name: string; readonly version: string; readonly sha256: string };
  readonly skipped: boolean;
  readonly skip_reason: string | null;
  /** The skip's human-readable cause from the client (never carries keys or state). */
  readonly skip_message: string | null;
  readonly latency_ms: number;
  /** The model pin that answered; null when nothing answered. */
  readonly model: string | null;
}
