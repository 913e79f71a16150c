import type { Feedback } from '../feedback/feedback.js';
import type { Grade } from '../grading/grade.js';
import type { WorkReviser, WorkVersion } from './work-reviser.js';

/** One graded version of the work, and the feedback sent back for it (null when none was sent). */
export interface RevisionRound {
  /** 0 for the work as handed in, then 1, 2, … for each revision. */
  round: number;
  responseId: string;
  grade: Grade;
  feedback: Feedback | null;
}

/** Why the loop ended. */
export type RevisionStop =
  | 'satisfied'
  /** unsatisfied or ungraded: feedback cannot rescue it (docs/grading.md). */
  | 'not_revisable'
  /** The weighted score did not rise over the previous round. */
  | 'no_improvement'
  | 'max_rounds'
  /** The reviser failed (the task failed, the server refused); `error` says how. */
  | 'revision_failed'
  /** `signal` aborted while a revision was under way (the UHP reviser cancels the task). */
  | 'aborted';

export interface RevisionResult {
  rounds: RevisionRound[];
  stop: RevisionStop;
  error?: string;
  /** The grade of the last round: its outcome is the result of the loop. */
  final: Grade;
}

export interface ReviseUntilSatisfiedOptions {
  reviser: WorkReviser;
  /** The first version to grade; default: `reviser.current()`. */
  initial?: WorkVersion;
  grade(work: string, signal?: AbortSignal): Promise<Grade>;
  feedback(grade: Grade, work: string): Promise<Feedback>;
  /** Most revisions requested; default 3 (the literature finds little gain after two or three). */
  maxRounds?: number;
  /** Called after each round is graded, for progress output. */
  onRound?(round: RevisionRound): void;
  signal?: AbortSignal;
}

export const DEFAULT_MAX_ROUNDS = 3;

/**
 * Grades the work; while it needs revision, sends feedback back through the reviser and grades the
 * revised work, at most `maxRounds` times. Stops early when satisfied, when the outcome is one that
 * feedback cannot fix, or when the weighted score stops rising.
 */
export async function reviseUntilSatisfied(options: ReviseUntilSatisfiedOptions): Promise<RevisionResult> {
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  const rounds: RevisionRound[] = [];
  let version = options.initial ?? (await options.reviser.current(options.signal));
  for (let round = 0; ; round++) {
    const grade = await options.grade(version.work, options.signal);
    const current: RevisionRound = { round, responseId: version.responseId, grade, feedback: null };
    rounds.push(current);
    const previous = rounds.at(-2)?.grade.weightedScore;
    const stop = stopReason(grade, previous, round, maxRounds);
    if (stop !== undefined) {
      options.onRound?.(current);
      return { rounds, stop, final: grade };
    }
    current.feedback = await options.feedback(grade, version.work);
    options.onRound?.(current);
    try {
      version = await options.reviser.revise(current.feedback.text, options.signal);
    } catch (error) {
      return {
        rounds,
        stop: options.signal?.aborted ? 'aborted' : 'revision_failed',
        error: error instanceof Error ? error.message : String(error),
        final: grade,
      };
    }
  }
}

function stopReason(
  grade: Grade,
  previousScore: number | null | undefined,
  round: number,
  maxRounds: number,
): RevisionStop | undefined {
  if (grade.outcome === 'satisfied') return 'satisfied';
  if (grade.outcome !== 'needs_revision') return 'not_revisable';
  if (previousScore != null && grade.weightedScore !== null && grade.weightedScore <= previousScore) {
    return 'no_improvement';
  }
  if (round >= maxRounds) return 'max_rounds';
  return undefined;
}
