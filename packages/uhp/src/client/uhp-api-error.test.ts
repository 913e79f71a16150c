import { describe, expect, it } from 'vitest';
import { createUhpApiError, parseRetryAfter, UhpApiError } from './uhp-api-error.js';

describe('createUhpApiError', () => {
  it('types the envelope and takes the wait from Retry-After', () => {
    const error = createUhpApiError(
      429,
      {
        error: {
          type: 'rate_limit_error',
          code: 'rate_limited',
          message: 'Slow down.',
          param: null,
          detail: null,
        },
      },
      new Headers({ 'retry-after': '3' }),
    );
    expect(UhpApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: 'Slow down.',
      retryAfterMs: 3000,
    });
    expect(error.isRetryable).toBe(true);
  });

  it('falls back to detail.retry_after_ms (session_busy)', () => {
    const error = createUhpApiError(
      409,
      {
        error: {
          type: 'invalid_request_error',
          code: 'session_busy',
          message: 'Busy.',
          param: null,
          detail: { retry_after_ms: 1500 },
        },
      },
      new Headers(),
    );
    expect(error).toMatchObject({ retryAfterMs: 1500, isRetryable: false });
  });

  it('does not pass off a non-envelope body (a proxy page) as the server speaking', () => {
    const error = createUhpApiError(502, '<html>Bad gateway</html>', new Headers());
    expect(error).toMatchObject({ status: 502, code: 'invalid_envelope', type: 'server_error' });
    expect(error.message).not.toContain('html');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter('1.5')).toBe(1500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });
});
