/** delay-seconds (RFC 9110 §10.2.3). Fractions are not in the grammar but servers send them; read them too. */
const DELAY_SECONDS = /^\d+(\.\d+)?$/;

/**
 * HTTP-date (RFC 9110 §5.6.7): the IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient
 * must still accept. Date.parse alone would take ISO strings and many local formats a server never means.
 */
const HTTP_DATE = [
  /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Za-z]+, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * Reads an HTTP `Retry-After` value: delay-seconds (fractions included) or an HTTP-date. Returns the wait
 * in milliseconds (0 for a date already past), or undefined when the header is absent or malformed.
 */
export function parseRetryAfter(
  header: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (DELAY_SECONDS.test(value)) return Math.round(Number(value) * 1000);
  if (!HTTP_DATE.some((form) => form.test(value))) return undefined;
  // asctime carries no zone; RFC 9110 says it is UTC.
  const at = Date.parse(value.endsWith('GMT') ? value : `${value} GMT`);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
