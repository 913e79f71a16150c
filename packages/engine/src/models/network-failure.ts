/**
 * What a failed connection means to a person: the system's code (ENOTFOUND, ECONNREFUSED, …) is
 * kept, in parentheses, for searching, but the sentence says what happened and what to do, so a
 * pull on a machine without network does not end on a bare `getaddrinfo ENOTFOUND huggingface.co`.
 */
export interface NetworkFailure {
  /** One clause: what happened, with the host and the code. */
  readonly reason: string;
  /** What to do about it, or null when there is nothing to say beyond the reason. */
  readonly hint: string | null;
}

const AIR_GAPPED =
  'without network, copy the model into the cache instead (docs/user-guide.md, "Models without network")';

const NAME_NOT_RESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL']);
const NO_ROUTE = new Set([
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const STOPPED = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
]);
const TLS = /^(CERT_|ERR_TLS_|UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_)/;

/** The system error's code; undici nests it (ENOTFOUND, ECONNREFUSED) in `cause`. */
function codeOf(error: unknown): string | null {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

function messageOf(error: unknown): string {
  const inner = (error as { cause?: unknown }).cause ?? error;
  return inner instanceof Error ? inner.message : String(inner);
}

/** Explains a failed request to `url` (its host is named; never its path or query). */
export function explainNetworkFailure(error: unknown, url: string): NetworkFailure {
  const host = safeHost(url);
  const code = codeOf(error);
  if (code !== null && NAME_NOT_RESOLVED.has(code))
    return {
      reason: `cannot resolve ${host} (${code})`,
      hint: `this machine looks offline or has no DNS; behind a proxy, set HTTPS_PROXY; ${AIR_GAPPED}`,
    };
  if (code === 'ECONNREFUSED')
    return {
      reason: `${host} refused the connection (${code})`,
      hint: 'nothing listens there: check HF_ENDPOINT, or the proxy named in HTTPS_PROXY',
    };
  if (code !== null && NO_ROUTE.has(code))
    return {
      reason: `no connection to ${host} (${code})`,
      hint: `this machine looks offline, or a firewall stops the connection; behind a proxy, set HTTPS_PROXY; ${AIR_GAPPED}`,
    };
  if (code !== null && STOPPED.has(code))
    return { reason: `${host} stopped answering (${code})`, hint: 'run the pull again to resume' };
  if (code !== null && TLS.test(code))
    return {
      reason: `the TLS certificate of ${host} was not accepted (${code})`,
      hint: 'a proxy that inspects TLS needs its CA certificate in NODE_EXTRA_CA_CERTS',
    };
  const message = messageOf(error);
  return {
    reason: code !== null && !message.includes(code) ? `${message} (${code})` : message,
    hint: null,
  };
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}

/** `reason; hint` as one clause for a message. */
export function describeNetworkFailure(failure: NetworkFailure): string {
  return failure.hint === null ? failure.reason : `${failure.reason}; ${failure.hint}`;
}
