/** Nano-units per currency unit: amounts are integers of 1e-9, so ledger arithmetic is exact. */
export const NANOS_PER_UNIT = 1_000_000_000n;

/** Up to 999 999.999999999: every such amount in nano-units is a safe integer (< 2^53). */
const AMOUNT = /^(\d{1,6})(?:\.(\d{1,9}))?$/;

/**
 * Parses a decimal amount such as `12.50` into nano-units, digit by digit (no floating point), so
 * what an operator credits is exactly what the ledger holds. Null when the text is not an amount.
 */
export function parseAmount(text: string): number | null {
  const match = AMOUNT.exec(text.trim());
  if (!match?.[1]) return null;
  const whole = BigInt(match[1]) * NANOS_PER_UNIT;
  const fraction = BigInt((match[2] ?? '').padEnd(9, '0'));
  return Number(whole + fraction);
}

/** Nano-units as a decimal amount without trailing zeros (`12.5`, `0.000015`, `3`). */
export function formatAmount(nanos: number): string {
  const sign = nanos < 0 ? '-' : '';
  const value = BigInt(Math.abs(nanos));
  const whole = value / NANOS_PER_UNIT;
  const fraction = (value % NANOS_PER_UNIT).toString().padStart(9, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}
