import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { invocationIo } from './invocation-io.js';

/**
 * The one reader of standard input: every command reads through the invocation's streams, so a
 * command served by the gate daemon reads the input of the hook that forwarded it, not the daemon's.
 */
export async function readStandardInputBytes(maxBytes = Number.POSITIVE_INFINITY): Promise<Buffer | null> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of invocationIo().stdin()) {
    total += chunk.byteLength;
    // Stop early rather than buffer an unbounded stream.
    if (total > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** All of standard input as UTF-8. */
export async function readStandardInput(): Promise<string> {
  return ((await readStandardInputBytes()) ?? Buffer.alloc(0)).toString('utf8');
}

/** Standard input line by line, as it arrives (`--jsonl`). */
export function standardInputLines(): AsyncIterable<string> {
  const input = Readable.from(invocationIo().stdin(), { objectMode: false });
  return createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
}
