import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DECISION_ERROR_CODES, EngineError } from '@arbiter/decision';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { API_ERROR_REGISTRY, type ApiErrorCode } from './api-error-registry.js';

const SOURCE = fileURLToPath(new URL('..', import.meta.url));
const API_DOCS = fileURLToPath(new URL('../../../../docs/api.md', import.meta.url));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/** `status type code` for each row of the error table under "## Errors" in docs/api.md. */
function documentedRows(): string[] {
  const text = fs.readFileSync(API_DOCS, 'utf8');
  const section = text.slice(text.indexOf('\n## Errors\n'), text.indexOf('\n## Request ids\n'));
  return [...section.matchAll(/^\| (\d{3})\s+\| (\w+)\s+\| `(\w+)`/gm)].map(
    ([, status, type, code]) => `${status} ${type} ${code}`,
  );
}

function registeredRows(): string[] {
  return Object.entries(API_ERROR_REGISTRY).flatMap(([code, entry]) =>
    [entry.status, ...('otherStatuses' in entry ? entry.otherStatuses : [])].map(
      (status) => `${status} ${entry.type} ${code}`,
    ),
  );
}

describe('the Decision API error registry', () => {
  it('registers exactly the codes the wire format names (DECISION_ERROR_CODES)', () => {
    expect(Object.keys(API_ERROR_REGISTRY).sort()).toEqual([...DECISION_ERROR_CODES].sort());
  });

  it('holds every code a site of the server builds an error from', () => {
    const used = new Set<string>();
    for (const file of sourceFiles(SOURCE)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const [, code] of text.matchAll(/ApiError\.of\(\s*'(\w+)'/g)) used.add(code as string);
      expect(text.includes('new ApiError('), `${file} builds an ApiError by hand`).toBe(
        file.endsWith(`${path.sep}api-error.ts`),
      );
    }
    expect(used.size).toBeGreaterThan(15);
    for (const code of used) expect(Object.hasOwn(API_ERROR_REGISTRY, code), code).toBe(true);
  });

  it('gives each type the statuses of its class', () => {
    for (const [code, entry] of Object.entries(API_ERROR_REGISTRY)) {
      const expected = {
        authentication_error: [401],
        permission_error: [403],
        not_found_error: [404],
        rate_limit_error: [429],
        api_error: [500],
        engine_error: [502, 503, 504],
      }[entry.type as string];
      if (expected) expect(expected, code).toContain(entry.status);
      else expect(entry.status >= 400 && entry.status < 500, code).toBe(true);
    }
  });

  it('is the error table of docs/api.md, row for row', () => {
    expect(documentedRows().sort()).toEqual(registeredRows().sort());
  });

  it('calls retryable exactly the codes docs/api.md says may succeed when sent again', () => {
    const text = fs.readFileSync(API_DOCS, 'utf8');
    const sentence = /may succeed for\s+((?:`\w+`(?:,\s+|\s+and\s+))*`\w+`);/.exec(text)?.[1] ?? '';
    const documented = [...sentence.matchAll(/`(\w+)`/g)].map(([, code]) => code);
    const retryable = Object.entries(API_ERROR_REGISTRY)
      .filter(([, entry]) => entry.retryable)
      .map(([code]) => code);
    expect(documented.sort()).toEqual(retryable.sort());
  });

  it('agrees with EngineError on which engine failures are worth another attempt', () => {
    for (const code of ['engine_error', 'engine_unavailable', 'engine_timeout'] as const) {
      expect(API_ERROR_REGISTRY[code].retryable, code).toBe(
        new EngineError({ code, message: code }).isRetryable,
      );
    }
  });
});

describe('ApiError.of', () => {
  it('takes the status and type from the registry', () => {
    for (const code of Object.keys(API_ERROR_REGISTRY) as ApiErrorCode[]) {
      const error = ApiError.of(code, 'why');
      expect([error.statusCode, error.type, error.code]).toEqual([
        API_ERROR_REGISTRY[code].status,
        API_ERROR_REGISTRY[code].type,
        code,
      ]);
      expect(error.toBody().error).toEqual({ type: error.type, code, message: 'why', param: null });
    }
  });

  it('answers one of the code’s other registered statuses when asked, and carries param and detail', () => {
    const error = ApiError.of('invalid_request', 'headers too long', {
      status: 431,
      param: 'x',
      detail: { a: 1 },
    });
    expect(error.statusCode).toBe(431);
    expect(error.toBody()).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'invalid_request',
        message: 'headers too long',
        param: 'x',
        detail: { a: 1 },
      },
      detail: { message: 'headers too long', error_type: 'unknown' },
    });
    // @ts-expect-error: a code without other statuses cannot choose one, nor at run time.
    expect(() => ApiError.of('not_found', 'x', { status: 431 })).toThrow(
      'the error code not_found is registered with status 404, not 431',
    );
    expect(() => ApiError.of('invalid_request', 'x', { status: 418 as 431 })).toThrow(/not 418/);
  });
});
