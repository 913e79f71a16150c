import type { TeamOutcome, TeamRecordRow, TeamSuggestion } from './team-types.js';

const OUTCOME_WORDS: Record<TeamOutcome, string> = {
  allowed: 'allowed',
  denied: 'denied',
  approved: 'approved by a person',
  declined: 'declined',
  pending: 'pending',
  none: '—',
};

/** The outcome in words; for an ASK, what the person did (or that no answer has come yet). */
export function outcomeWords(outcome: TeamOutcome): string {
  return OUTCOME_WORDS[outcome] ?? outcome;
}

/** An instant as the reader's local date and time, to the second; unparsable text is shown as it came. */
export function formatInstant(iso: string, locale?: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  return time.toLocaleString(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** The first 12 hexadecimal digits of a hash, enough to tell two apart by eye; the whole goes in a title. */
export function shortHash(sha256: string): string {
  return sha256.slice(0, 12);
}

/** Who decided a suggestion, whichever shape the server names the operator in. */
export function deciderName(decidedBy: TeamSuggestion['decided_by']): string {
  if (decidedBy === null) return '—';
  return typeof decidedBy === 'string' ? decidedBy : decidedBy.name;
}

/** A record that reached the server this long after its call was queued while the server was down (or the clocks disagree). */
export const LATE_RECEIPT_MS = 60_000;

/**
 * When the server received a row, if that was well after the call (a queued record replayed
 * later); null otherwise. The time filter and the per-day plot go by the receipt, so a late row
 * says so rather than seem misfiled.
 */
export function lateReceipt(row: TeamRecordRow): string | null {
  const called = Date.parse(row.record.time);
  const received = Date.parse(row.received_at);
  if (Number.isNaN(called) || Number.isNaN(received)) return null;
  return received - called > LATE_RECEIPT_MS ? row.received_at : null;
}
