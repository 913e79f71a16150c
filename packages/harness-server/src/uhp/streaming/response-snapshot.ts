import type { UhpResponse } from '@arbiter/uhp/wire';
import type { StoredResponse, UhpStore } from '../storage/uhp-store.js';
import { ResponseAssembler } from './response-assembler.js';

/**
 * The response as a client should see it now: a terminal response is stored whole; a running one
 * gets the output assembled so far from its event log, so polling shows progress.
 */
export async function responseSnapshot(store: UhpStore, stored: StoredResponse): Promise<UhpResponse> {
  if (stored.status !== 'in_progress') return stored.body;
  const assembler = new ResponseAssembler();
  for (const event of await store.eventsAfter(stored.id, -1)) assembler.apply(event);
  return { ...stored.body, output: assembler.snapshot() };
}
