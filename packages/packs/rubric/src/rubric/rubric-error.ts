/** One problem found in a rubric, located by a readable path such as `criteria[2] "tests" › pass_score`. */
export interface RubricIssue {
  path: string;
  message: string;
}

const MARKER = Symbol.for('arbiter.rubric.RubricError');

/** A rubric that cannot be used: unreadable, not YAML/JSON, or invalid. Lists every issue found. */
export class RubricError extends Error {
  override readonly name = 'RubricError';
  readonly [MARKER] = true;

  constructor(
    /** Where the rubric came from (a file path, or `rubric` for an in-memory value). */
    readonly source: string,
    readonly issues: readonly RubricIssue[],
  ) {
    super(
      `invalid rubric ${source}:\n${issues.map((issue) => `  - ${issue.path ? `${issue.path}: ` : ''}${issue.message}`).join('\n')}`,
    );
  }

  static isInstance(error: unknown): error is RubricError {
    return typeof error === 'object' && error !== null && MARKER in error;
  }
}
