import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { redactingLogMethod, redactingSerializers, redactUrl } from './log-redaction.js';

describe('redactUrl', () => {
  it('hides share tokens and credential parameters, keeps the rest of the URL', () => {
    expect(redactUrl('/api/harness/v1/shared/AbCdEfGhIjKlMnOpQrStUvWxYz012345')).toBe(
      '/api/harness/v1/shared/[redacted]',
    );
    expect(redactUrl('/x?page=2&api_key=abc&token=t0k&accessToken=zz&key=k')).toBe(
      '/x?page=2&api_key=[redacted]&token=[redacted]&accessToken=[redacted]&key=[redacted]',
    );
    expect(redactUrl('/v1/models?limit=5')).toBe('/v1/models?limit=5');
  });
});

describe('the err serializer', () => {
  it('redacts a key that a provider error quotes, down the cause chain and in own fields', () => {
    const key = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    const cause = Object.assign(new Error(`Incorrect API key provided: ${key}`), {
      responseBody: `{"error":{"message":"Incorrect API key provided: ${key}"}}`,
      apiKey: 'whatever-its-shape',
    });
    const error = new Error('the engine failed', { cause });
    const serialised = JSON.stringify(redactingSerializers.err(error));
    expect(serialised).toContain('the engine failed');
    expect(serialised).toContain('Incorrect API key provided');
    expect(serialised).not.toContain(key);
    expect(serialised).not.toContain('whatever-its-shape');
  });
});

describe('redactingLogMethod', () => {
  it('redacts the message and every string field, and replaces secret-named fields whole', () => {
    const lines: string[] = [];
    const logger = pino(
      { hooks: { logMethod: redactingLogMethod } },
      { write: (line: string) => void lines.push(line) },
    );
    const key = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    logger.info(
      { model: key, apiKey: 'any-shape', count: 3 },
      `no model named ${key} at /v1/shared/AbCdEf123`,
    );
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line.msg).toBe('no model named [REDACTED:openai-key] at /v1/shared/[redacted]');
    expect(line).toMatchObject({ apiKey: '[redacted]', count: 3 });
    expect(JSON.stringify(line)).not.toContain(key);
  });
});
