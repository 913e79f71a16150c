export type { ProducedFile, UhpClientEvent, UhpClientEventType } from './client/client-event.js';
export type { HarnessDeleted } from './client/resources/harnesses.js';
export type { CreateOptions } from './client/resources/responses.js';
export type { SessionListOptions } from './client/resources/sessions.js';
export { ResponseStream, type ResponseStreamOptions } from './client/response-stream.js';
export { DEFAULT_RETRY_POLICY, nextRetryDelay, type RetryPolicy } from './client/retry-policy.js';
export { readSseMessages, type SseMessage } from './client/sse-reader.js';
export {
  createUhpApiError,
  UHP_CLIENT_ERROR_CODES,
  UhpApiError,
  type UhpClientErrorCode,
} from './client/uhp-api-error.js';
export { UhpCapabilityError } from './client/uhp-capability-error.js';
export { UhpClient, type UhpClientOptions, type UhpConnection } from './client/uhp-client.js';
export { UhpConnectionError } from './client/uhp-connection-error.js';
export { UhpError } from './client/uhp-error.js';
export { UhpHttp, type UhpHttpOptions, type UhpRequest } from './client/uhp-http.js';
export { UhpProtocolVersionError } from './client/uhp-protocol-version-error.js';
export { resolveConfigDir } from './local/config-dir.js';
export {
  MAX_SAVED_SESSIONS,
  type SavedConnection,
  type SavedSession,
  UHP_STORE_FILE,
  UhpLocalStore,
} from './local/uhp-local-store.js';
// The wire schemas and types, also available alone as `@arbiter/uhp/wire`.
export * from './wire/index.js';
