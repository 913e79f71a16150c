import type { DecisionClient, State } from '@arbiter/decision';
import type { Rubric } from '../rubric/load-rubric.js';
import { decideOutcome } from './decide-outcome.js';
import type { Grade } from './grade.js';
import { gradeCriterion } from './grade-criterion.js';

export interface GradeWorkOptions {
  /** Any decision client: HTTP, in-process or stub transport. */
  client: Pick<DecisionClient, 'decide'>;
  rubric: Rubric;
  /** The work under judgement; it is sent as the decision request's state (redacted by the client). */
  work: State;
  /** Model pin or alias; default: the client's or the server's default. */
  model?: string;
  signal?: AbortSignal;
}

/**
 * Grades work against a rubric with one decision request (one question per criterion, the rubric as
 * the request's `pack`). Never throws for service failures: a skipped call is an `ungraded` grade
 * that names the skip reason.
 */
export async function gradeWork(options: GradeWorkOptions): Promise<Grade> {
  const { rubric } = options;
  const rubricIdentity = {
    name: rubric.definition.name,
    version: rubric.definition.version,
    sha256: rubric.sha256,
  };
  const result = await options.client.decide({
    state: options.work,
    questions: rubric.questions,
    pack: rubric.pack,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (result.skipped) {
    return {
      rubric: rubricIdentity,
      outcome: 'ungraded',
      ungraded: {
        reason: 'service_skipped',
        message: `the decision service was skipped (${result.reason}${result.status === undefined ? '' : `, HTTP ${result.status}`}): ${result.message}`,
      },
      criteria: [],
      weightedScore: null,
      passShare: null,
      model: null,
      usage: null,
      latencyMs: result.latencyMs,
    };
  }
  const answers = result.answers;
  const criteria = rubric.definition.criteria.map((criterion) => {
    const answer = answers[criterion.id];
    // The client checks every answer against its question before returning, so this is a bug upstream.
    if (answer === undefined) throw new Error(`the decision client returned no answer for "${criterion.id}"`);
    return gradeCriterion(criterion, answer);
  });
  return {
    rubric: rubricIdentity,
    ...decideOutcome(rubric.definition.outcome, criteria),
    criteria,
    model: result.model,
    usage: result.usage,
    latencyMs: result.latencyMs,
  };
}
