export { findAnswerMismatch } from './client/answers-match-questions.js';
export {
  type DecideResult,
  type DecisionAnswered,
  type DecisionSkipped,
  SKIP_REASONS,
  type SkipReason,
} from './client/decide-result.js';
export {
  DEFAULT_BUDGET_MS,
  type DecideOptions,
  DecisionClient,
  type DecisionClientOptions,
} from './client/decision-client.js';
export type {
  DecisionTransport,
  TransportFailure,
  TransportOutcome,
  TransportResponse,
} from './client/decision-transport.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './client/retry-policy.js';
export { type Clock, sleepOn, systemClock } from './clock/clock.js';
export type {
  DecisionEngine,
  EvaluateOptions,
  EvaluateResult,
} from './engine-specification/decision-engine.js';
export { EngineError, type EngineErrorCode } from './engine-specification/engine-error.js';
export type { PackAnalyser } from './engine-specification/pack-analyser.js';
export { choice, type Instructions, type NoulCriteria, noul, score } from './question/question-builders.js';
export type { AnswerFor, AnswersFor, TypedChoiceAnswer } from './question/typed-answer.js';
export type { TypedChoiceQuestion } from './question/typed-question.js';
export { redact, redactState } from './redaction/redact.js';
export { isSecretName } from './redaction/secret-name.js';
export {
  SECRET_RULES,
  type SecretRule,
  TOKEN_SHAPE_RULES,
  tokenShapeKind,
} from './redaction/secret-rules.js';
export {
  createHttpTransport,
  DEFAULT_BASE_URL,
  type HttpTransportOptions,
  MAX_RESPONSE_BYTES,
} from './transport/http-transport.js';
export {
  createInProcessTransport,
  type InProcessTransportOptions,
} from './transport/in-process-transport.js';
export { createStubTransport, STUB_MODEL } from './transport/stub-transport.js';
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
  type Criterion,
  choiceQuestionSchema,
  type InstructionValue,
  instructionsSchema,
  instructionValueSchema,
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
  type DocumentAliasResult,
  decisionRequestSchema,
  type PackReference,
  packReferenceSchema,
  questionMapSchema,
  resolveDocumentAlias,
  type State,
  stateSchema,
} from './wire/request.js';
export { type DecisionResponse, decisionResponseSchema, type Usage, usageSchema } from './wire/response.js';
