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
 * The error of a JSON body that parses but is refused: not UTF-8, a lone surrogate escape
 * (`"\ud800"`, which no UTF-8 text can hold), or a member name twice in one object (RFC 8259 leaves
 * its meaning open, and the System One compatibility specification requires a refusal: a body that
 * says two things must not silently mean the last one). A 400 in both envelopes, with `message`.
 */
export const JSON_BODY_REFUSED_CODE = 'ARBITER_JSON_BODY_REFUSED';

/** The error of a JSON body announced in another charset than UTF-8 (a 415 in both envelopes). */
export const JSON_CHARSET_CODE = 'ARBITER_JSON_CHARSET';

/**
 * Why a JSON text (already valid UTF-8) is refused, or null: a member name repeated in one object,
 * or a string (a name or a value) holding a lone surrogate through `\u` escapes. One pass over the
 * text; only strings with escapes are decoded. Meant for text that `JSON.parse` accepts: on other
 * text it may answer null, and the parser reports the syntax error.
 */
export function jsonStrictnessViolation(text: string): string | null {
  // Per open container: the member names seen (objects) and whether the next string is a name.
  const stack: { names: Set<string> | null; expectName: boolean }[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 0x22) {
      const start = index;
      let escaped = false;
      for (index++; index < text.length; index++) {
        const inner = text.charCodeAt(index);
        if (inner === 0x5c) {
          escaped = true;
          index++;
        } else if (inner === 0x22) break;
      }
      const token = text.slice(start, index + 1);
      let value: string;
      if (escaped) {
        try {
          value = JSON.parse(token) as string;
        } catch {
          return null;
        }
        if (LONE_SURROGATE.test(value))
          return 'a string holds a lone surrogate escape (\\ud800–\\udfff without its pair)';
      } else value = token.slice(1, -1);
      const top = stack.at(-1);
      if (top?.names && top.expectName) {
        if (top.names.has(value)) return 'an object has the same member name twice';
        top.names.add(value);
        top.expectName = false;
      }
    } else if (char === 0x7b) stack.push({ names: new Set(), expectName: true });
    else if (char === 0x5b) stack.push({ names: null, expectName: false });
    else if (char === 0x7d || char === 0x5d) stack.pop();
    else if (char === 0x2c) {
      const top = stack.at(-1);
      if (top?.names) top.expectName = true;
    }
  }
  return null;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function refusal(message: string, code: string, statusCode: number): Error {
  return Object.assign(new Error(message), { statusCode, code });
}

/** The charset a Content-Type names, lower-cased, or null when it names none. */
function charsetOf(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * Replaces the instance's JSON parser by Fastify's own (prototype-poisoning checks included) behind
 * the checks every JSON route of both APIs shares: the body is UTF-8 (announced as such or not at
 * all, and decoded strictly), nested at most `MAX_JSON_DEPTH` levels, free of lone surrogates and of
 * repeated member names. Content-type parsers are encapsulated, so each plugin that renders its own
 * errors installs it in its context; every route thus has this one parser.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
      done(
        refusal(`the body is announced as ${charset}; send JSON as UTF-8`, JSON_CHARSET_CODE, 415),
        undefined,
      );
      return;
    }
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(refusal('the request body is not valid UTF-8', JSON_BODY_REFUSED_CODE, 400), undefined);
      return;
    }
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      done(
        refusal(`the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, JSON_TOO_DEEP_CODE, 400),
        undefined,
      );
      return;
    }
    parse(request, text, (error, parsed) => {
      if (error) {
        done(error, undefined);
        return;
      }
      const violation = jsonStrictnessViolation(text);
      if (violation)
        done(refusal(`the JSON body is refused: ${violation}`, JSON_BODY_REFUSED_CODE, 400), undefined);
      else done(null, parsed);
    });
  });
}
