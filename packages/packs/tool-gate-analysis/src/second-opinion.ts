import type { Answer, DecisionEngine, EvaluateOptions, Question } from '@arbiter/decision';
import type { ToolGateThresholds } from '@arbiter/tool-gate/contract';
import type { ToolGateAnswers } from './tool-gate-answers.js';

/**
 * Issue 27, a model's second opinion, as the seed design has it: when the operator configures a
 * decision model for the pack, a call whose analysis left a part not understood (and that the
 * analysis does not deny) is put to that model as the six questions. What the analysis is certain
 * of decides first: its risks are floors the model can raise and never lower, its grant match
 * stands, a call it denies is never asked. The pack's composition rules then decide on the
 * merged answers: a model's `ask` is ASK, a risk at or over the deny threshold DENY, and ALLOW
 * needs everything the pack asks for ALLOW. Every answer says that a model answered
 * (`arbiter.engine` names both, `evidence` carries `second-opinion:<engine>`).
 */
export interface SecondOpinion {
  /** The model engine that answers (an OpenAI-compatible or local model engine). */
  readonly engine: DecisionEngine;
  /** Its name in the records (the configured model, for example `qwen3-8b`). */
  readonly name: string;
}

const RISKS = ['destructive', 'exfil_risk'] as const;
/** The on_task cap the analysis applies to anything it does not understand (`tool-gate-answers.ts`). */
const UNCERTAIN_ON_TASK = 0.6;

function noulOf(answer: Answer | undefined): number | undefined {
  return answer?.type === 'noul' ? answer.noul : undefined;
}

/**
 * Asks the model and merges its answers into the analysis's. A model that fails or answers out of
 * shape leaves the analysis's answers as they were, with the failure in the evidence: never an
 * ALLOW from an answer that did not come.
 */
export async function withSecondOpinion(
  analysis: ToolGateAnswers,
  opinion: SecondOpinion,
  request: EvaluateOptions,
  thresholds: ToolGateThresholds,
): Promise<{
  answers: ToolGateAnswers;
  usage: { input_tokens: number | null; output_tokens: number | null };
}> {
  const questions: Record<string, Question> = {};
  for (const [id, question] of Object.entries(request.questions)) questions[id] = question;
  let model: Readonly<Record<string, Answer>>;
  let usage: { input_tokens: number | null; output_tokens: number | null } = {
    input_tokens: null,
    output_tokens: null,
  };
  try {
    // The model is asked the pack's questions about the call as plain decision questions: no
    // pack member, so a model engine does not route them back to an analyser.
    const result = await opinion.engine.evaluate({ state: request.state, questions, signal: request.signal });
    model = result.answers;
    usage = result.usage;
  } catch (error) {
    request.signal?.throwIfAborted();
    const name = error instanceof Error ? error.name : typeof error;
    return { answers: noted(analysis, `second-opinion.failed:${opinion.name}:${name}`), usage };
  }
  const disposition = model.disposition;
  if (disposition?.type !== 'choice' || !['allow', 'deny', 'ask'].includes(disposition.choice))
    return { answers: noted(analysis, `second-opinion.unusable:${opinion.name}`), usage };

  const tag = `second-opinion:${opinion.name}`;
  const merged: ToolGateAnswers = structuredClone(analysis);
  for (const id of RISKS) {
    const said = noulOf(model[id]);
    if (said !== undefined && said > merged[id].noul)
      merged[id] = { noul: said, evidence: [...merged[id].evidence, tag] };
  }
  const plausible = noulOf(model.args_plausible);
  if (plausible !== undefined && plausible < merged.args_plausible.noul)
    merged.args_plausible = { noul: plausible, evidence: [...merged.args_plausible.evidence, tag] };
  // The analysis lowers on_task for a part it does not understand; the model reads the call whole,
  // so its figure replaces that cap, but not a finding of the analysis that the call is off task.
  const onTask = noulOf(model.on_task);
  if (onTask !== undefined) {
    const offTask = analysis.on_task.noul < UNCERTAIN_ON_TASK ? analysis.on_task.noul : 1;
    merged.on_task = { noul: Math.min(onTask, offTask), evidence: [...merged.on_task.evidence, tag] };
  }

  const risk = Math.max(merged.destructive.noul, merged.exfil_risk.noul);
  let choice: 'allow' | 'deny' | 'ask';
  if (risk >= thresholds.deny_noul) choice = 'deny';
  else if (disposition.choice === 'ask' || disposition.choice === 'deny') choice = 'ask';
  else if (
    risk < thresholds.allow_risk_max &&
    merged.on_task.noul >= thresholds.allow_noul &&
    merged.in_grant.noul >= 0.5 &&
    merged.args_plausible.noul >= 0.5 &&
    disposition.confidence >= thresholds.allow_confidence
  )
    choice = 'allow';
  else choice = 'ask';
  const confidence =
    choice === 'deny'
      ? risk
      : choice === 'allow'
        ? Math.min(disposition.confidence, 1 - risk)
        : Math.max(0.5, 1 - risk);
  const rest = (1 - confidence) / 2;
  merged.disposition = {
    choice,
    confidence,
    probabilities: {
      allow: choice === 'allow' ? confidence : rest,
      deny: choice === 'deny' ? confidence : rest,
      ask: choice === 'ask' ? confidence : rest,
    },
    evidence: [...analysis.disposition.evidence, `${tag}:${disposition.choice}`],
  };
  return { answers: merged, usage };
}

function noted(answers: ToolGateAnswers, code: string): ToolGateAnswers {
  return {
    ...answers,
    disposition: { ...answers.disposition, evidence: [...answers.disposition.evidence, code] },
  };
}
