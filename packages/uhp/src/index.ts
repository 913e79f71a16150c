export type { ProducedFile, UhpClientEvent, UhpClientEventType } from './client/client-event.js';
export type { HarnessDeleted } from './client/resources/harnesses.js';
export type { CreateOptions } from './client/resources/responses.js';
export type { SessionListOptions } from './client/resources/sessions.js';
export { ResponseStream, type ResponseStreamOptions } from './client/response-stream.js';
export { DEFAULT_RETRY_POLICY, nextRetryDelay, type RetryPolicy } from './client/retry-policy.js';
export { readSseMessages, type SseMessage } from './client/sse-reader.js';
export { createUhpApiError, parseRetryAfter, UhpApiError } from './client/uhp-api-error.js';
export { UhpCapabilityError } from './client/uhp-capability-error.js';
export { UhpClient, type UhpClientOptions, type UhpConnection } from './client/uhp-client.js';
export { UhpConnectionError } from './client/uhp-connection-error.js';
export { UhpHttp, type UhpHttpOptions, type UhpRequest } from './client/uhp-http.js';
export { resolveConfigDir } from './local/config-dir.js';
export {
  MAX_SAVED_SESSIONS,
  type SavedConnection,
  type SavedSession,
  UHP_STORE_FILE,
  UhpLocalStore,
} from './local/uhp-local-store.js';
export {
  type Capabilities,
  type ConformanceClass,
  capabilitiesSchema,
  conformanceClassSchema,
  type Discovery,
  discoverySchema,
  UHP_CAPABILITY_NAMES,
  type UhpCapabilityName,
} from './wire/discovery.js';
export {
  UHP_ERROR_CODES,
  UHP_ERROR_TYPES,
  type UhpError,
  type UhpErrorCode,
  type UhpErrorEnvelope,
  type UhpErrorType,
  uhpErrorEnvelopeSchema,
  uhpErrorSchema,
  uhpErrorTypeSchema,
} from './wire/error.js';
export {
  isTerminalEventType,
  type StreamEvent,
  streamEventSchema,
  TERMINAL_EVENT_TYPES,
  type TerminalEventType,
} from './wire/event.js';
export { type FileList, type FileObject, fileListSchema, fileObjectSchema } from './wire/file.js';
export {
  type Harness,
  type HarnessCreate,
  type HarnessList,
  type HarnessUpdate,
  harnessCreateSchema,
  harnessListSchema,
  harnessSchema,
  harnessUpdateSchema,
  type McpServer,
  mcpServerSchema,
  type Skill,
  type SkillFile,
  type SkillFileList,
  skillFileListSchema,
  skillFileSchema,
  skillSchema,
} from './wire/harness.js';
export {
  type HarnessModels,
  harnessModelsSchema,
  type Model,
  type ModelCatalogBody,
  modelCatalogSchema,
  modelSchema,
} from './wire/model.js';
export {
  type Annotation,
  annotationSchema,
  type ContainerFileCitation,
  type ContentPart,
  containerFileCitationSchema,
  contentPartSchema,
  type FunctionCallItem,
  type FunctionCallOutputItem,
  functionCallItemSchema,
  functionCallOutputItemSchema,
  type KnownOutputItem,
  type MessageItem,
  messageItemSchema,
  type OutputItem,
  type OutputText,
  outputItemSchema,
  outputTextSchema,
  type ReasoningItem,
  reasoningItemSchema,
} from './wire/output-item.js';
export {
  CREATE_RESPONSE_REQUEST_KEYS,
  type CreateResponseRequest,
  createResponseRequestSchema,
  type InputContentPart,
  type InputFile,
  type InputImage,
  type InputItem,
  type InputItemList,
  type InputText,
  inputFileSchema,
  inputImageSchema,
  inputItemListSchema,
  inputItemSchema,
  inputTextSchema,
} from './wire/request.js';
export {
  RESPONSE_STATUSES,
  type ResponseMetadata,
  type ResponseStatus,
  responseMetadataSchema,
  responseSchema,
  responseStatusSchema,
  TERMINAL_RESPONSE_STATUSES,
  type UhpResponse,
} from './wire/response.js';
export {
  type Session,
  type SessionList,
  type SessionShare,
  type SessionTurn,
  type SessionTurns,
  sessionListSchema,
  sessionSchema,
  sessionShareSchema,
  sessionTurnSchema,
  sessionTurnsSchema,
} from './wire/session.js';
export { type Usage, usageSchema } from './wire/usage.js';
export { UHP_VERSION, UHP_VERSION_HEADER, UHP_VERSION_PATTERN } from './wire/version.js';
