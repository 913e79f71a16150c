/**
 * `@arbiter/uhp/wire`: the UHP 2026-08-11 wire schemas and types alone, without the client. The
 * server imports this entry, so starting it does not load the client library
 * (bench/decision-startup.mjs).
 */
export {
  type Capabilities,
  type ConformanceClass,
  capabilitiesSchema,
  conformanceClassSchema,
  type Discovery,
  discoverySchema,
  UHP_CAPABILITY_NAMES,
  type UhpCapabilityName,
} from './discovery.js';
export {
  UHP_ERROR_TYPES,
  type UhpError,
  type UhpErrorEnvelope,
  type UhpErrorType,
  uhpErrorEnvelopeSchema,
  uhpErrorSchema,
  uhpErrorTypeSchema,
} from './error.js';
export {
  isUhpErrorCode,
  UHP_ERROR_REGISTRY,
  type UhpErrorCode,
  type UhpErrorCodeEntry,
  type UhpHttpErrorCode,
  uhpErrorCodeEntry,
} from './error-codes.js';
export {
  isTerminalEventType,
  type StreamEvent,
  streamEventSchema,
  TERMINAL_EVENT_TYPES,
  type TerminalEventType,
} from './event.js';
export { type FileList, type FileObject, fileListSchema, fileObjectSchema } from './file.js';
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
} from './harness.js';
export {
  type HarnessModels,
  harnessModelsSchema,
  type Model,
  type ModelCatalogBody,
  modelCatalogSchema,
  modelSchema,
} from './model.js';
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
} from './output-item.js';
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
} from './request.js';
export {
  RESPONSE_STATUSES,
  type ResponseMetadata,
  type ResponseStatus,
  responseMetadataSchema,
  responseSchema,
  responseStatusSchema,
  TERMINAL_RESPONSE_STATUSES,
  type UhpResponse,
} from './response.js';
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
} from './session.js';
export { type Usage, usageSchema } from './usage.js';
export { UHP_VERSION, UHP_VERSION_HEADER, UHP_VERSION_PATTERN } from './version.js';
