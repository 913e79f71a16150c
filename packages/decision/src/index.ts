export type { DecisionEngine, EvaluateOptions, EvaluateResult } from './engine/decision-engine.js';
export { EngineError, type EngineErrorCode } from './engine/engine-error.js';
export {
  type Answer,
  type AnswerMeta,
  answerMetaSchema,
  answerSchema,
  type ChoiceAnswer,
  choiceAnswerSchema,
  type NoulAnswer,
  noulAnswerSchema,
  type ScoreAnswer,
  scoreAnswerSchema,
} from './wire/answer.js';
export {
  DECISION_ERROR_CODES,
  type DecisionErrorCode,
  type ErrorBody,
  errorBodySchema,
} from './wire/error.js';
export { DECISION_LIMITS } from './wire/limits.js';
export {
  type ChoiceQuestion,
  choiceQuestionSchema,
  instructionsSchema,
  type NoulQuestion,
  noulQuestionSchema,
  type Question,
  type QuestionType,
  questionSchema,
  type ScoreQuestion,
  scoreQuestionSchema,
} from './wire/question.js';
export {
  type DecisionRequest,
  decisionRequestSchema,
  type PackReference,
  packReferenceSchema,
  questionMapSchema,
  type State,
  stateSchema,
} from './wire/request.js';
export { type DecisionResponse, decisionResponseSchema, type Usage, usageSchema } from './wire/response.js';
