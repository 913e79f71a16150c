import type { FastifyInstance } from 'fastify';

/**
 * Deepest nesting of arrays and objects a JSON body may have. Parsing and validating are recursive,
 * so a body of a few kilobytes nested 10,000 deep would otherwise exhaust the stack of whatever walks
 * it next; no request of either API needs more than a few levels.
 */
export const MAX_JSON_DEPTH = 128;

/** The error a JSON body nested deeper than `MAX_JSON_DEPTH` fails with (a 400 in both envelopes). */
export const JSON_TOO_DEEP_CODE = 'ARBITER_JSON_TOO_DEEP';

/** The nesting depth of a JSON text, counted without parsing (brackets inside strings do not count). */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}

/**
 * Replaces the instance's JSON parser by Fastify's own (prototype-poisoning checks included) behind a
 * depth check. Content-type parsers are encapsulated, so each plugin that renders its own errors
 * installs it in its context.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) {
      const error = Object.assign(new Error(`the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`), {
        statusCode: 400,
        code: JSON_TOO_DEEP_CODE,
      });
      done(error, undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
