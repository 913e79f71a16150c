import { UhpApiError, UhpError, UhpProtocolVersionError } from '@arbiter/uhp';

const amount = (value: unknown) =>
  typeof value === 'number' || typeof value === 'string' ? String(value) : 'unknown';

/**
 * What the user reads when a UHP call fails: the server's own (user-safe) message and code, plus what
 * to do about it where we know. Never includes the request's credentials.
 */
export function describeUhpFailure(error: unknown): string {
  if (UhpApiError.isInstance(error)) {
    if (error.is('quota_exhausted')) {
      const detail = error.detail ?? {};
      const unit = typeof detail.unit === 'string' ? ` ${detail.unit}` : '';
      return [
        `The server refused the task: ${error.message} (quota_exhausted)`,
        `  required:  ${amount(detail.required)}${unit}`,
        `  available: ${amount(detail.available)}${unit}`,
        'The reservation is max_output_tokens × the model’s output price; try a smaller --max-output-tokens.',
      ].join('\n');
    }
    if (error.is('missing_credential') || error.is('invalid_credential')) {
      return `${error.message} (${error.code}) Reconnect with a valid key: arbiter uhp connect <url> --api-key …`;
    }
    if (error.is('invalid_envelope') && error.status === 404) {
      return `${error.message} Is this the server's UHP base URL (the part before /v1, e.g. http://host:8080/api/harness)?`;
    }
    return `${error.message} (HTTP ${error.status}, ${error.code})`;
  }
  if (UhpProtocolVersionError.isInstance(error)) {
    return `${error.message} Use an Arbiter release that speaks one of ${error.supported.join(', ')}.`;
  }
  if (UhpError.isInstance(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}
