/** Limits of the Decision API. Documented in docs/api.md; enforced by the wire schemas and the server. */
export const DECISION_LIMITS = {
  /** Most options a Choice question may have. */
  maxChoiceOptions: 255,
  /** Fewest and most levels of a Score rubric. */
  minScoreLevels: 2,
  maxScoreLevels: 10,
  /** Most questions in one request. */
  maxQuestions: 64,
  /** Longest question id. */
  maxQuestionIdLength: 128,
  /** Largest request body the server accepts, in bytes. */
  maxBodyBytes: 1_048_576,
  /** Context budget for the state plus the longest question, in (estimated) tokens. */
  maxContextTokens: 32_768,
} as const;
