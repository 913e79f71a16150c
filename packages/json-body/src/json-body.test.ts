import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installJsonBodyParser, JSON_TOO_DEEP_CODE, jsonDepthExceeds, MAX_JSON_DEPTH } from './json-body.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects alike, up to the limit inclusive', () => {
    expect(jsonDepthExceeds(nested(3), 3)).toBe(false);
    expect(jsonDepthExceeds(nested(4), 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[{}]}}', 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[1]}}', 3)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthExceeds(JSON.stringify({ a: '[[[[{{{{' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ a: 'say \\"[[[[\\" and "{{{{"' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify(['\\', [[]]]), 2)).toBe(true);
  });
});

describe('installJsonBodyParser', () => {
  const app = async () => {
    const instance = Fastify({ logger: false });
    installJsonBodyParser(instance);
    instance.post('/', async (request) => ({ received: request.body }));
    return instance;
  };

  it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} levels with a 400 and its code, before parsing`, async () => {
    const instance = await app();
    const reply = await instance.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/json' },
      payload: nested(MAX_JSON_DEPTH + 1),
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toMatchObject({ code: JSON_TOO_DEEP_CODE });
    await instance.close();
  });

  it("parses a body at the limit, and keeps Fastify's prototype-poisoning refusal", async () => {
    const instance = await app();
    const deep = await instance.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/json' },
      payload: nested(MAX_JSON_DEPTH),
    });
    expect(deep.statusCode).toBe(200);
    const poisoned = await instance.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
    await instance.close();
  });
});
