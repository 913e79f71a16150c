export type { ProducedFile, UhpClientEvent } from './client/client-event.js';
export { ResponseStream } from './client/response-stream.js';
export type { RetryPolicy } from './client/retry-policy.js';
export { createUhpApiError, UhpApiError } from './client/uhp-api-error.js';
export { UhpCapabilityError } from './client/uhp-capability-error.js';
export { UhpClient, type UhpConnection } from './client/uhp-client.js';
export { UhpConnectionError } from './client/uhp-connection-error.js';
export { UhpError } from './client/uhp-error.js';
export { UhpProtocolVersionError } from './client/uhp-protocol-version-error.js';
export { resolveConfigDir } from './local/config-dir.js';
export { type SavedConnection, type SavedSession, UhpLocalStore } from './local/uhp-local-store.js';
// The wire types the client's methods take and return; every wire schema and type is in
// `@arbiter/uhp/wire`.
export {
  type Capabilities,
  type CreateResponseRequest,
  type Harness,
  messageItemSchema,
  type Session,
  UHP_CAPABILITY_NAMES,
  type UhpResponse,
  type Usage,
} from './wire/index.js';
