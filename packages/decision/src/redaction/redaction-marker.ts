/** The text that replaces a secret: names what was removed, never any part of it. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/** True when a value is already a marker, so a second pass leaves it alone. */
export function containsRedactionMarker(text: string): boolean {
  return text.includes('[REDACTED:');
}
