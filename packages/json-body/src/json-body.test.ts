import fc from 'fast-check';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  installJsonBodyParser,
  JSON_BODY_REFUSED_CODE,
  JSON_CHARSET_CODE,
  JSON_TOO_DEEP_CODE,
  jsonDepthExceeds,
  jsonStrictnessViolation,
  MAX_JSON_DEPTH,
} from './json-body.js';

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

  const post = async (payload: string | Buffer, contentType = 'application/json') => {
    const instance = await app();
    const reply = await instance.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': contentType },
      payload,
    });
    await instance.close();
    return reply;
  };

  it('refuses bytes that are not UTF-8, and a body announced in another charset (415)', async () => {
    const invalid = await post(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      code: JSON_BODY_REFUSED_CODE,
      message: 'the request body is not valid UTF-8',
    });
    // An encoded surrogate (ED A0 80) is not UTF-8 either.
    expect((await post(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]))).statusCode).toBe(400);
    const utf16 = await post(Buffer.from('{"a":1}', 'utf16le'), 'application/json; charset=utf-16');
    expect(utf16.statusCode).toBe(415);
    expect(utf16.json()).toMatchObject({ code: JSON_CHARSET_CODE });
    for (const type of [
      'application/json; charset=utf-8',
      'application/json; charset="UTF-8"',
      'application/json',
    ])
      expect((await post('{"a":"é"}', type)).json()).toEqual({ received: { a: 'é' } });
  });

  it('refuses a member name twice in one object and a lone surrogate escape, with a specific message', async () => {
    const duplicate = await post('{"a":1,"b":{"c":1},"a":2}');
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json()).toMatchObject({
      code: JSON_BODY_REFUSED_CODE,
      message: 'the JSON body is refused: an object has the same member name twice',
    });
    const lone = await post('{"a":"x\\ud800y"}');
    expect(lone.statusCode).toBe(400);
    expect(lone.json().message).toMatch(/lone surrogate/);
    // A pair written as two escapes is one character, and is accepted.
    expect((await post('{"a":"\\ud83d\\ude00"}')).json()).toEqual({ received: { a: '😀' } });
  });
});

describe('jsonStrictnessViolation', () => {
  it('finds a repeated name in any object, however it is escaped, and only names of the same object', () => {
    expect(jsonStrictnessViolation('{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).toBeNull();
    expect(jsonStrictnessViolation('[{"x":1,"y":{"z":[1,2]},"x":3}]')).toMatch(/same member name/);
    expect(jsonStrictnessViolation('{"a":1,"\\u0061":2}')).toMatch(/same member name/);
    // Values equal to a name are not names.
    expect(jsonStrictnessViolation('{"a":"a","b":"a"}')).toBeNull();
    expect(jsonStrictnessViolation('{"k":"v, \\"k\\": 1"}')).toBeNull();
    expect(jsonStrictnessViolation('["\\udc00"]')).toMatch(/lone surrogate/);
    expect(jsonStrictnessViolation('{"\\ud800":1}')).toMatch(/lone surrogate/);
  });
});

describe('the parse without a second walk', () => {
  // Fastify's own JSON parser, which the installed one must agree with wherever no rule of ours
  // (depth, UTF-8, repeated names, lone surrogates) refuses the body.
  const apps = async () => {
    const ours = Fastify({ logger: false });
    installJsonBodyParser(ours);
    const fastify = Fastify({ logger: false });
    for (const instance of [ours, fastify])
      instance.post('/', async (request) => ({ received: request.body }));
    return { ours, fastify };
  };
  const outcome = async (instance: ReturnType<typeof Fastify>, payload: string) => {
    const reply = await instance.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    return { status: reply.statusCode, body: reply.body };
  };

  it("gives Fastify's value or Fastify's error for prototype names, a byte-order mark, empty and broken text", async () => {
    const { ours, fastify } = await apps();
    for (const payload of [
      '{"__proto__":{"admin":true}}',
      '{"a":[{"\\u005f_proto__":1}]}',
      '{"constructor":{"prototype":{"admin":true}}}',
      '{"constructor":1,"b":"__proto__"}',
      '{"note":"\\"__proto__\\": 1"}',
      '\uFEFF{"a":1}',
      '\uFEFF',
      '',
      '{"a":',
      '{"a" 1}',
      'nul',
      '"text"',
      '12',
    ]) {
      expect(await outcome(ours, payload), payload).toEqual(await outcome(fastify, payload));
    }
    await ours.close();
    await fastify.close();
  });

  it('agrees with Fastify on any JSON value, and on any cut of one', async () => {
    const { ours, fastify } = await apps();
    await fc.assert(
      fc.asyncProperty(fc.json({ maxDepth: 6 }), fc.nat(), async (text, cut) => {
        expect(await outcome(ours, text)).toEqual(await outcome(fastify, text));
        const broken = text.slice(0, cut % (text.length + 1));
        expect(await outcome(ours, broken)).toEqual(await outcome(fastify, broken));
      }),
      { numRuns: 300 },
    );
    await ours.close();
    await fastify.close();
  });
});
