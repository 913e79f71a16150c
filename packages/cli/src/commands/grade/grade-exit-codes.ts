/** Exit status per outcome (docs/grading.md); 3 is reserved for input that could not be graded at all. */
export const GRADE_EXIT_CODES = {
  satisfied: 0,
  needs_revision: 1,
  unsatisfied: 2,
  ungraded: 2,
} as const;

/** A problem with the command's input (flags, files): never confused with an outcome. */
export const USAGE_EXIT_CODE = 3;
