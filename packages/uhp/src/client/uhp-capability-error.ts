import type { UhpCapabilityName } from '../wire/discovery.js';
import { UhpError } from './uhp-error.js';

const MARKER = Symbol.for('arbiter.uhp.UhpCapabilityError');

/** The client refused to try an operation the server's discovery document says it lacks. */
export class UhpCapabilityError extends UhpError {
  readonly [MARKER] = true;
  readonly capability: UhpCapabilityName;

  constructor(capability: UhpCapabilityName, operation: string) {
    super(`The server does not offer '${capability}', which ${operation} needs.`);
    this.name = 'UhpCapabilityError';
    this.capability = capability;
  }

  static override isInstance(value: unknown): value is UhpCapabilityError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }
}
