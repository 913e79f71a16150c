import { isSecretName, redact } from '@arbiter/decision';
import type { FastifyRequest } from 'fastify';
import pino from 'pino';

/** Path segments that are bearer credentials themselves: whoever reads them can use them. */
const CREDENTIAL_PATHS = [/(\/v1\/shared\/)[^/?#]+/g];

/** Query parameters that carry credentials under names `isSecretName` does not judge secret. */
const CREDENTIAL_PARAMETERS = new Set(['key', 'token', 'code', 'sig', 'signature', 'access_token']);

/**
 * A request URL as it may appear in a log: share tokens in the path, credential-named query
 * parameters and anything the secret rules recognise are replaced. A log is read by more people
 * and kept longer than the request lived, so it must not become a copy of the credentials.
 */
export function redactUrl(url: string): string {
  let result = redact(url);
  for (const pattern of CREDENTIAL_PATHS) result = result.replace(pattern, '$1[redacted]');
  const query = result.indexOf('?');
  if (query >= 0) {
    const parameters = result
      .slice(query + 1)
      .split('&')
      .map((pair) => {
        const name = decodeSafely(pair.split('=')[0] ?? '');
        return CREDENTIAL_PARAMETERS.has(name.toLowerCase()) || isSecretName(name)
          ? `${pair.split('=')[0]}=[redacted]`
          : pair;
      });
    result = `${result.slice(0, query)}?${parameters.join('&')}`;
  }
  return result;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Every string of a serialised error passed through `redact` (provider errors echo keys). */
function redactStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      isSecretName(key) ? '[redacted]' : redactStrings(item, depth + 1),
    ]),
  );
}

/**
 * Pino serializers of the server's logger: `req` logs the redacted URL, `err` logs pino's standard
 * error object (message, stack, cause chain, own fields) with every string redacted, so an upstream
 * error that quotes a key (`Incorrect API key provided: sk-…`) never reaches a log line whole.
 */
export const redactingSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
  err(error: Error) {
    return redactStrings(pino.stdSerializers.err(error)) as ReturnType<typeof pino.stdSerializers.err>;
  },
};

/** Free text as it may appear in a log: what the secret rules recognise, and share tokens in paths. */
export function redactText(text: string): string {
  let result = redact(text);
  for (const pattern of CREDENTIAL_PATHS) result = result.replace(pattern, '$1[redacted]');
  return result;
}

/**
 * Pino's `logMethod` hook: every log line's message, and every string field of its object, is
 * redacted whichever field a secret arrives in (a model name, a question id, a URL quoted in an
 * error message); fields named like secrets are replaced whole. Objects the serializers own (`req`,
 * `res`, `err`) are left to them.
 */
export function redactingLogMethod(
  this: pino.Logger,
  args: Parameters<pino.LogFn>,
  method: pino.LogFn,
): void {
  const redacted = (args as unknown[]).map((argument) => {
    if (typeof argument === 'string') return redactText(argument);
    if (argument === null || typeof argument !== 'object' || argument instanceof Error) return argument;
    return Object.fromEntries(
      Object.entries(argument).map(([key, value]) => [
        key,
        isSecretName(key) ? '[redacted]' : typeof value === 'string' ? redactText(value) : value,
      ]),
    );
  });
  method.apply(this, redacted as Parameters<pino.LogFn>);
}
