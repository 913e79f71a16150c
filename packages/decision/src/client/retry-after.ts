/**
 * Reads an HTTP `Retry-After` value (RFC 9110 §10.2.3): delay-seconds or an HTTP date. Returns the wait
 * in milliseconds (0 for a date in the past), or undefined when the header is absent or malformed.
 */
export function parseRetryAfter(
  header: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (/^[0-9]+$/.test(value)) return Number(value) * 1000;
  // HTTP dates always name a weekday and GMT; Date.parse alone would accept many other formats.
  if (!/^[A-Za-z]{3}, .+ GMT$/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
