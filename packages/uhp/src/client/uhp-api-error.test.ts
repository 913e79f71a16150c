import { describe, expect, it } from 'vitest';
import { createUhpApiError, UhpApiError } from './uhp-api-error.js';
import { UhpError } from './uhp-error.js';

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

  it('shares the package root class, recognised by its marker', () => {
    const error = createUhpApiError(500, 'x', new Headers());
    expect(UhpError.isInstance(error)).toBe(true);
    expect(UhpError.isInstance(new Error('x'))).toBe(false);
  });
});

describe('Retry-After on an error answer', () => {
  it('is read by the one shared parser: fractional seconds and HTTP dates alike', () => {
    const body = { error: { type: 'rate_limit_error', code: 'rate_limited', message: 'slow down' } };
    const fractional = createUhpApiError(429, body, new Headers({ 'retry-after': '1.5' }));
    expect(fractional.retryAfterMs).toBe(1500);
    const dated = createUhpApiError(
      429,
      body,
      new Headers({ 'retry-after': 'Thu, 01 Jan 1970 00:00:00 GMT' }),
    );
    expect(dated.retryAfterMs).toBe(0);
    expect(createUhpApiError(429, body, new Headers({ 'retry-after': 'soon' })).retryAfterMs).toBeNull();
  });
});
