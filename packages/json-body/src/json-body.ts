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
  return scanJson(text, limit).tooDeep;
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
  return scanJson(text, Number.POSITIVE_INFINITY).violation;
}

/** What one pass over a JSON text finds (meaningful for text that `JSON.parse` accepts). */
interface JsonScan {
  /** Nested deeper than the limit; counted over the whole text, whatever else was found. */
  readonly tooDeep: boolean;
  /** The first strictness violation (see `jsonStrictnessViolation`), or null. */
  readonly violation: string | null;
  /**
   * A member name is `__proto__` or `constructor`, the names Fastify's parser (secure-json-parse)
   * inspects for prototype poisoning. Without one, plain `JSON.parse` gives the same value.
   */
  readonly poisonable: boolean;
}

/**
 * The depth, strictness and prototype-name checks in one pass, since a request pays for every walk
 * over its body (three walks and Fastify's two regular expressions cost the Decision API's floor
 * more than its routing; docs/benchmarks.md). Strings are sliced only when their text matters: a
 * member name, or a value with a `\u` escape that might be a lone surrogate (the text itself came
 * from a strict UTF-8 decoder, so only an escape can hold one).
 */
function scanJson(text: string, depthLimit: number): JsonScan {
  let depth = 0;
  let tooDeep = false;
  let violation: string | null = null;
  // Set once a string cannot be decoded: the text is not JSON, and the parser will say so.
  let strictnessDone = false;
  let poisonable = false;
  // Per open container: the member names seen (objects) and whether the next string is a name.
  const stack: { names: Set<string> | null; expectName: boolean }[] = [];
  // Strings are skipped with `indexOf` (native, far quicker than a loop over their characters);
  // this is the next backslash at or after the current position, or -1 when there is none.
  let backslash = text.indexOf('\\');
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 0x22) {
      const start = index;
      let escaped = false;
      let unicodeEscape = false;
      if (backslash !== -1 && backslash < start) backslash = text.indexOf('\\', start);
      let end = text.indexOf('"', start + 1);
      while (end !== -1 && backslash !== -1 && backslash < end) {
        escaped = true;
        if (text.charCodeAt(backslash + 1) === 0x75) unicodeEscape = true;
        const after = backslash + 2; // the escaped character is skipped, an escaped quote too
        if (after > end) end = text.indexOf('"', after);
        backslash = text.indexOf('\\', after);
      }
      index = end === -1 ? text.length : end;
      if (strictnessDone) continue;
      const top = stack.at(-1);
      const isName = top?.names != null && top.expectName;
      if (!isName && !unicodeEscape) continue;
      const token = text.slice(start, index + 1);
      let value: string;
      if (escaped) {
        try {
          value = JSON.parse(token) as string;
        } catch {
          strictnessDone = true;
          continue;
        }
        if (unicodeEscape && violation === null && LONE_SURROGATE.test(value))
          violation = 'a string holds a lone surrogate escape (\\ud800–\\udfff without its pair)';
      } else value = token.slice(1, -1);
      if (isName) {
        const names = top.names as Set<string>;
        if (violation === null && names.has(value)) violation = 'an object has the same member name twice';
        names.add(value);
        top.expectName = false;
        if (value === '__proto__' || value === 'constructor') poisonable = true;
      }
    } else if (char === 0x7b) {
      if (++depth > depthLimit) tooDeep = true;
      stack.push({ names: new Set(), expectName: true });
    } else if (char === 0x5b) {
      if (++depth > depthLimit) tooDeep = true;
      stack.push({ names: null, expectName: false });
    } else if (char === 0x7d || char === 0x5d) {
      depth--;
      stack.pop();
    } else if (char === 0x2c) {
      const top = stack.at(-1);
      if (top?.names) top.expectName = true;
    }
  }
  return { tooDeep, violation, poisonable };
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
    const scan = scanJson(text, MAX_JSON_DEPTH);
    if (scan.tooDeep) {
      done(
        refusal(`the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, JSON_TOO_DEEP_CODE, 400),
        undefined,
      );
      return;
    }
    const parsed = scan.poisonable ? undefined : parsePlain(text);
    if (parsed === undefined) {
      // A prototype name to inspect, or text `JSON.parse` refuses: Fastify's parser decides, with
      // its own errors (an empty body, invalid JSON, a poisoning attempt).
      parse(request, text, (error, value) => {
        if (error) done(error, undefined);
        else finish(scan, value, done);
      });
      return;
    }
    finish(scan, parsed.value, done);
  });
}

/**
 * `JSON.parse` as Fastify's parser calls it (a leading byte-order mark skipped), or undefined when
 * it throws. Equal to Fastify's result for text whose member names include no prototype name.
 */
function parsePlain(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch {
    return undefined;
  }
}

function finish(scan: JsonScan, value: unknown, done: (error: Error | null, body?: unknown) => void): void {
  if (scan.violation)
    done(refusal(`the JSON body is refused: ${scan.violation}`, JSON_BODY_REFUSED_CODE, 400), undefined);
  else done(null, value);
}
