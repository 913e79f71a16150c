import type { ChoiceAnswer, NoulAnswer } from '@arbiter/decision';

/** The answers to the six tool-gate questions, as the decision service returned them. */
export interface ToolGateAnswers {
  readonly in_grant?: NoulAnswer;
  readonly args_plausible?: NoulAnswer;
  readonly destructive?: NoulAnswer;
  readonly exfil_risk?: NoulAnswer;
  readonly on_task?: NoulAnswer;
  readonly disposition?: ChoiceAnswer;
}
