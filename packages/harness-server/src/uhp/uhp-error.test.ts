import { UHP_ERROR_REGISTRY } from '@arbiter/uhp/wire';
import { describe, expect, it } from 'vitest';
import { notFound, UhpFailure, unprocessableInput } from './uhp-error.js';

describe('UhpFailure', () => {
  it('takes its status and type from the registry, so a service never names an HTTP status', () => {
    for (const [code, entry] of Object.entries(UHP_ERROR_REGISTRY)) {
      if (entry.status === null) continue;
      const failure = new UhpFailure(code as ConstructorParameters<typeof UhpFailure>[0], 'x');
      expect(failure.statusCode, code).toBe(entry.status);
      expect(failure.toEnvelope().error.type, code).toBe(entry.type);
    }
  });

  it('is 422 only for invalid_input a rule of its object refuses', () => {
    expect(unprocessableInput('A skill path may not hold `..`.', 'skills[0].files[0].path').statusCode).toBe(
      422,
    );
    expect(new UhpFailure('invalid_input', 'x').statusCode).toBe(400);
    expect(new UhpFailure('session_busy', 'x', { unprocessable: true }).statusCode).toBe(409);
  });

  it('renders the envelope with param and detail, and is recognised by its marker', () => {
    const failure = notFound('harness_not_found', 'harness', 'metadata.harness_id');
    expect(failure.toEnvelope()).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'harness_not_found',
        message: 'No harness with that id exists in your scope.',
        param: 'metadata.harness_id',
        detail: null,
      },
    });
    expect(UhpFailure.isInstance(failure)).toBe(true);
    expect(UhpFailure.isInstance(new Error('x'))).toBe(false);
  });
});
