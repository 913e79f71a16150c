import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, nextRetryDelay } from './retry-policy.js';
import { UhpApiError } from './uhp-api-error.js';
import { UhpConnectionError } from './uhp-connection-error.js';

const apiError = (status: number, code: string, retryAfterMs: number | null = null) =>
  new UhpApiError({ status, type: 'x', code, message: code, retryAfterMs });

describe('nextRetryDelay', () => {
  it('backs off exponentially with full jitter below a ceiling', () => {
    const error = apiError(500, 'server_error');
    expect(nextRetryDelay(DEFAULT_RETRY_POLICY, 0, error, () => 1)).toBe(250);
    expect(nextRetryDelay(DEFAULT_RETRY_POLICY, 2, error, () => 1)).toBe(1000);
    expect(nextRetryDelay(DEFAULT_RETRY_POLICY, 2, error, () => 0)).toBe(0);
    expect(nextRetryDelay({ ...DEFAULT_RETRY_POLICY, maxRetries: 10 }, 9, error, () => 1)).toBe(8000);
  });

  it('honours Retry-After and gives up when it is longer than the policy allows', () => {
    expect(nextRetryDelay(DEFAULT_RETRY_POLICY, 0, apiError(429, 'rate_limited', 3000))).toBe(3000);
    expect(nextRetryDelay(DEFAULT_RETRY_POLICY, 0, apiError(429, 'rate_limited', 120_000))).toBeNull();
  });

  it('never retries client errors or an exhausted quota, and stops after maxRetries', () => {
    for (const [status, code] of [
      [400, 'invalid_input'],
      [401, 'invalid_credential'],
      [404, 'harness_not_found'],
      [409, 'session_busy'],
      [429, 'quota_exhausted'],
    ] as const) {
      expect(nextRetryDelay(DEFAULT_RETRY_POLICY, 0, apiError(status, code))).toBeNull();
    }
    expect(nextRetryDelay(DEFAULT_RETRY_POLICY, 3, apiError(503, 'harness_unavailable'))).toBeNull();
    expect(nextRetryDelay(DEFAULT_RETRY_POLICY, 0, new Error('a bug'))).toBeNull();
  });

  it('retries a connection that could not be made', () => {
    expect(nextRetryDelay(DEFAULT_RETRY_POLICY, 0, new UhpConnectionError('down'), () => 1)).toBe(250);
  });
});
