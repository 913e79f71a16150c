import type { Answer } from '@arbiter/decision';

/**
 * The evidence code of an answer given without evidence: the engine found nothing in the state
 * that bears on the question (no word in common, no word close in meaning, no cue) and answered its
 * prior (uniform, Noul 0.5), with `arbiter.abstained: true`. It is the machine-readable "a model
 * would help" that clients show (the wire format allows it: an extension member, never a
 * redefinition).
 */
export const NO_EVIDENCE = 'no-evidence';

export function lacksEvidence(answer: Answer): boolean {
  return answer.arbiter?.abstained === true;
}

/** The ids of the questions a result answered without evidence, in the result's order. */
export function questionsWithoutEvidence(answers: Readonly<Record<string, Answer>>): string[] {
  return Object.entries(answers)
    .filter(([, answer]) => lacksEvidence(answer))
    .map(([id]) => id);
}
