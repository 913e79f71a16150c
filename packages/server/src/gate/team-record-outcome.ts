/** What became of a judged call, as `GET /v1/gate/records` shows it (docs/api.md). */
export const TEAM_OUTCOMES = ['allowed', 'denied', 'approved', 'declined', 'pending', 'none'] as const;
export type TeamOutcome = (typeof TEAM_OUTCOMES)[number];

/** A verdict row as the outcome reads it; times are the server's milliseconds. */
export interface OutcomeInputs {
  readonly effective: 'ALLOW' | 'DENY' | 'ASK' | null;
  /** When the outcome record that folded into this verdict was received; null when none did. */
  readonly outcomeMs: number | null;
  readonly receivedMs: number;
}

/**
 * The gate's own outcome for ALLOW and DENY; for an ASK, the person's: `approved` once the host
 * said the call ran, `declined` when it had not after `declineAfterMs` (declined or abandoned:
 * a host says nothing when a person says no), `pending` before. Judged at `nowMs`, an injected
 * clock, so the window is tested without waiting.
 */
export function teamRecordOutcome(row: OutcomeInputs, nowMs: number, declineAfterMs: number): TeamOutcome {
  switch (row.effective) {
    case 'ALLOW':
      return 'allowed';
    case 'DENY':
      return 'denied';
    case 'ASK':
      if (row.outcomeMs !== null) return 'approved';
      return row.receivedMs < nowMs - declineAfterMs ? 'declined' : 'pending';
    default:
      return 'none';
  }
}
