import { describe, expect, it } from 'vitest';
import { createUhpApiError } from '../client/uhp-api-error.js';
import { isUhpErrorCode, UHP_ERROR_REGISTRY, uhpErrorCodeEntry } from './error-codes.js';

const SPECIFICATION_CODES = [
  'unsupported_protocol_version',
  'invalid_input',
  'harness_not_found',
  'response_not_found',
  'session_not_found',
  'file_not_found',
  'session_expired',
  'harness_mismatch',
  'session_busy',
  'file_too_large',
  'model_unavailable',
  'unsupported_base',
  'missing_credential',
  'invalid_credential',
  'insufficient_scope',
  'rate_limited',
  'quota_exhausted',
  'harness_error',
  'harness_unavailable',
  'provider_error',
  'timeout',
  'cancelled',
  'preview_unavailable',
  'preview_failed',
];

const envelope = (code: string) => ({ error: { type: 'invalid_request_error', code, message: code } });

describe('the UHP error-code registry', () => {
  it('holds every code the specification names (its ErrorEnvelope examples), marked as the specification’s', () => {
    for (const code of SPECIFICATION_CODES) {
      expect(uhpErrorCodeEntry(code)?.origin, code).toBe('specification');
    }
    const specification = Object.entries(UHP_ERROR_REGISTRY).filter(
      ([, entry]) => entry.origin === 'specification',
    );
    expect(specification.map(([code]) => code).sort()).toEqual([...SPECIFICATION_CODES].sort());
  });

  it('prefixes every code of Arbiter’s own, as the specification requires of vendor codes', () => {
    for (const [code, entry] of Object.entries(UHP_ERROR_REGISTRY)) {
      expect(entry.origin === 'arbiter', code).toBe(code.startsWith('arbiter_'));
    }
  });

  it('gives error answers a 4xx or 5xx status whose class agrees with the error type', () => {
    for (const [code, entry] of Object.entries(UHP_ERROR_REGISTRY)) {
      if (entry.status === null) continue;
      expect(entry.status >= 400 && entry.status < 600, code).toBe(true);
      if (entry.type === 'authentication_error') expect(entry.status, code).toBe(401);
      if (entry.type === 'rate_limit_error') expect(entry.status, code).toBe(429);
      if (entry.status >= 500) expect(entry.type, code).toBe('server_error');
    }
  });

  it('knows neither inherited names nor other vendors’ codes', () => {
    expect(isUhpErrorCode('toString')).toBe(false);
    expect(isUhpErrorCode('__proto__')).toBe(false);
    expect(uhpErrorCodeEntry('acme_custom')).toBeUndefined();
  });
});

describe('the client reads the registry', () => {
  it('retries what the registry calls retryable and nothing it does not, whatever the status class', () => {
    const retryable = (status: number, code: string) =>
      createUhpApiError(status, envelope(code), new Headers()).isRetryable;
    expect(retryable(429, 'rate_limited')).toBe(true);
    expect(retryable(503, 'harness_unavailable')).toBe(true);
    expect(retryable(429, 'quota_exhausted')).toBe(false);
    // A 5xx the server will answer the same way every time.
    expect(retryable(501, 'preview_unavailable')).toBe(false);
    expect(retryable(502, 'preview_failed')).toBe(false);
    expect(retryable(400, 'unsupported_protocol_version')).toBe(false);
    // Another vendor's code: the status decides.
    expect(retryable(503, 'acme_overloaded')).toBe(true);
    expect(retryable(409, 'acme_locked')).toBe(false);
  });

  it('names the entry of a registered code and none for an unknown one', () => {
    const known = createUhpApiError(409, envelope('session_busy'), new Headers());
    expect(known.registered?.status).toBe(409);
    expect(known.is('session_busy')).toBe(true);
    expect(createUhpApiError(418, envelope('acme_teapot'), new Headers()).registered).toBeUndefined();
  });
});
