import type { UhpStore } from '../storage/uhp-store.js';
import { outputTextOf } from '../turn-text.js';

/** The ordered turns of a session: each names its response and carries its input and final text. */
export async function sessionTurns(store: UhpStore, sessionId: string) {
  return (await store.sessionResponses(sessionId))
    .filter((turn) => !turn.hidden)
    .map((turn) => ({
      index: turn.turnIndex,
      response_id: turn.id,
      status: turn.status,
      model: turn.body.model,
      created_at: turn.body.created_at,
      input: turn.input,
      output_text: outputTextOf(turn.body.output),
    }));
}
