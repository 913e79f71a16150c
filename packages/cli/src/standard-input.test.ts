import { describe, expect, it } from 'vitest';
import { type InvocationIo, processIo, withInvocationIo } from './invocation-io.js';
import { readStandardInput, readStandardInputBytes, standardInputLines } from './standard-input.js';

/** An invocation whose standard input is `chunks`, counting how many were pulled. */
function invocationReading(chunks: string[]): { io: InvocationIo; pulled: () => number } {
  let pulled = 0;
  const io: InvocationIo = {
    ...processIo,
    async *stdin() {
      for (const chunk of chunks) {
        pulled++;
        yield Buffer.from(chunk, 'utf8');
      }
    },
    ownsProcess: false,
  };
  return { io, pulled: () => pulled };
}

describe('standard input', () => {
  it("is read from the invocation's streams, not the process's", async () => {
    const { io } = invocationReading(['héllo ', 'wörld']);
    expect(await withInvocationIo(io, readStandardInput)).toBe('héllo wörld');
  });

  it('stops reading at the byte limit instead of buffering the rest', async () => {
    const { io, pulled } = invocationReading(['12345', '67890', 'never read']);
    expect(await withInvocationIo(io, () => readStandardInputBytes(8))).toBeNull();
    expect(pulled()).toBe(2);
    const { io: small } = invocationReading(['1234', '5678']);
    expect((await withInvocationIo(small, () => readStandardInputBytes(8)))?.toString()).toBe('12345678');
  });

  it('yields lines as they arrive, across chunk boundaries and CRLF', async () => {
    const { io } = invocationReading(['{"a":1}\r\n{"b"', ':2}\n\nlast']);
    const lines = await withInvocationIo(io, async () => {
      const seen: string[] = [];
      for await (const line of standardInputLines()) seen.push(line);
      return seen;
    });
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '', 'last']);
  });
});
