import { type LabelledOutcome, LETTER_LABELS, MAX_TOP_LOGPROBS } from './labelled-outcome.js';

export interface OptionGroup {
  /** The group's letter in the first-step question. */
  readonly label: string;
  /** Indices into the full option list. */
  readonly members: readonly number[];
  /** The group's options relabelled A, B, … for the second-step question. */
  readonly options: readonly LabelledOutcome[];
}

/**
 * Splits options into ⌈n / 20⌉ contiguous groups of near-equal size (sizes differ by at most one), so both
 * steps fit in one standard `top_logprobs` call each: 255 options become 13 groups of 19–20.
 */
export function groupOptions(options: readonly LabelledOutcome[]): OptionGroup[] {
  const groupCount = Math.ceil(options.length / MAX_TOP_LOGPROBS);
  const groups: OptionGroup[] = [];
  let start = 0;
  for (let group = 0; group < groupCount; group += 1) {
    const size = Math.floor(options.length / groupCount) + (group < options.length % groupCount ? 1 : 0);
    const members = Array.from({ length: size }, (_, offset) => start + offset);
    groups.push({
      label: LETTER_LABELS[group]!,
      members,
      options: members.map((index, position) => ({
        key: options[index]!.key,
        label: LETTER_LABELS[position]!,
        description: options[index]!.description,
      })),
    });
    start += size;
  }
  return groups;
}

/**
 * P(option) = P(group) · P(option | group). Coverage is the first step's coverage times the expected
 * coverage of the second step, weighted by the group probabilities.
 */
export function combineGroupDistributions(
  optionCount: number,
  groups: readonly OptionGroup[],
  groupStep: { probabilities: readonly number[]; coverage: number },
  withinGroup: ReadonlyArray<{ probabilities: readonly number[]; coverage: number }>,
): { probabilities: number[]; coverage: number } {
  const probabilities = new Array<number>(optionCount).fill(0);
  let innerCoverage = 0;
  groups.forEach((group, g) => {
    const groupProbability = groupStep.probabilities[g] ?? 0;
    const inner = withinGroup[g]!;
    innerCoverage += groupProbability * inner.coverage;
    group.members.forEach((optionIndex, position) => {
      probabilities[optionIndex] = groupProbability * (inner.probabilities[position] ?? 0);
    });
  });
  return { probabilities, coverage: groupStep.coverage * innerCoverage };
}
