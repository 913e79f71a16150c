import type { UhpCapabilityName } from '../wire/discovery.js';
import type { UhpHttp } from './uhp-http.js';

/** What every resource needs: the transport, and the server's capabilities to gate on. */
export interface ResourceContext {
  readonly http: UhpHttp;
  /** Rejects with `UhpCapabilityError` when the server's discovery document lacks `capability`. */
  require(capability: UhpCapabilityName, operation: string): Promise<void>;
  has(capability: UhpCapabilityName): Promise<boolean>;
}

export const pathId = (id: string) => encodeURIComponent(id);
