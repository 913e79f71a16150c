import type { Answer, Question } from '@arbiter/decision';
import { instructionText } from './instruction-text.js';
import { NO_EVIDENCE } from './no-evidence.js';

/**
 * The kind of evidence an answer rests on, read from the evidence codes it names
 * (`arbiter.evidence`), as `<question type>:<family>`:
 *
 * - `relation-paraphrase`, `relation-answer`: two texts compared (is B a paraphrase of A, does B
 *   answer A), from the coverage of one by the other;
 * - `entailment`: a premise and a hypothesis;
 * - `answer-kind`: the kind of answer a question asks for (a person, a place, a number);
 * - `valence`: the tone of the state (a Noul about a feeling, a Score of valence, a Choice whose
 *   strongest evidence is the tone);
 * - `urgency`, `hostility`: their own cues;
 * - `contradicted-value`: a claim naming a day, number or name the state contradicts;
 * - `topical`: words and meanings in common between the state and a claim, option or level.
 *
 * Calibration is fitted per kind (for Nouls and Scores; a Choice takes the temperature of its
 * kind of question, `choiceKindOf`, never of its evidence: `calibrated-engine.ts` says why)
 * because the kinds differ in how far their scores can be trusted: on the held-out halves of public development data a topical claim ("Is this message spam?")
 * was 0.67 sure at 0.59 accuracy, a Score of valence 0.40 sure at 0.46, and a question whether
 * one text answers another 0.59 sure at 0.60 (docs/benchmarks.md).
 *
 * Undefined where no evidence kind applies: an answer without evidence (the prior, which no
 * temperature changes), a compound claim (derived from its parts, which are calibrated one by
 * one), or an engine that names no evidence codes (a model's answers).
 */
export function evidenceKindOf(answer: Answer): string | undefined {
  if (answer.arbiter?.abstained) return undefined;
  const codes = (answer.arbiter?.evidence ?? []).filter((code) => code !== 'negated');
  const first = codes[0];
  if (first === undefined || first === NO_EVIDENCE) return undefined;
  const [head, detail] = first.split(':');
  const family = familyOf(answer.type, head!, detail, codes);
  return family === undefined ? undefined : `${answer.type}:${family}`;
}

function familyOf(
  type: Answer['type'],
  head: string,
  detail: string | undefined,
  codes: readonly string[],
): string | undefined {
  switch (head) {
    case 'and':
    case 'or':
      return undefined;
    case 'relation':
      return detail ? `relation-${detail}` : undefined;
    case 'entailment':
      return 'entailment';
    case 'asks-for':
      return 'answer-kind';
    case 'urgency':
    case 'hostility':
      return head;
    case 'valence':
      return 'valence';
    case 'term':
    case 'near':
    case 'mismatch':
      // A value the state contradicts (Friday against Tuesday) is evidence of its own, apart from
      // the words a claim shares with the state.
      if (type === 'noul' && codes.some((code) => code.startsWith('mismatch:'))) return 'contradicted-value';
      // A Score of valence names its matched level words first and its valence after.
      return type === 'score' && codes.some((code) => code.startsWith('valence:')) ? 'valence' : 'topical';
    default:
      return undefined;
  }
}

/** Wording that asks for a feeling: an emotion, a mood, a sentiment, a tone. */
const FEELING_QUESTION = /\b(emotions?|emotional|feelings?|feel|mood|sentiments?|tone|attitude)\b/;
/** Wording that asks which kind of answer a question expects (a person, a place, a number…). */
const ANSWER_KIND_QUESTION =
  /\b(type|kind|sort|category|class)\b.*\banswers?\b|\banswers?\b.*\b(type|kind|category|class)\b/;

/**
 * The kind of question a Choice is, for its calibration, read from its wording alone:
 * `choice:feeling` (which emotion, which sentiment), `choice:answer-kind` (what type of answer a
 * question expects), else `choice`. Never from its options or evidence: removing an option must
 * leave the kind, and so the temperature, as it was, or the other options' proportions would move
 * (the choice-set law); renaming an option cannot change it either.
 */
export function choiceKindOf(question: Extract<Question, { type: 'choice' }>): string {
  const wording = (instructionText(question.instructions) ?? '').toLowerCase();
  if (FEELING_QUESTION.test(wording)) return 'choice:feeling';
  if (ANSWER_KIND_QUESTION.test(wording)) return 'choice:answer-kind';
  return 'choice';
}
