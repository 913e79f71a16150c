import { describe, expect, it } from 'vitest';
import { readSseMessages } from './sse-reader.js';

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function read(chunks: string[]) {
  const messages = [];
  for await (const message of readSseMessages(body(chunks))) messages.push(message);
  return messages;
}

describe('readSseMessages', () => {
  it('reassembles messages split anywhere, with CRLF, ids and keep-alive comments', async () => {
    const messages = await read([
      ': keep-alive\r\n\r\n',
      'id: 0\r\ndata: {"a"',
      ':1}\r\n\r',
      '\nevent: x\ndata: line one\ndata: line two\n\n',
    ]);
    expect(messages).toEqual([
      { id: '0', event: undefined, data: '{"a":1}' },
      { id: undefined, event: 'x', data: 'line one\nline two' },
    ]);
  });

  it('releases the connection when the reader stops early', async () => {
    let cancelled = false;
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(encoder.encode('data: {}\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const _message of readSseMessages(stream)) break;
    // The cancellation travels back through the decoding pipe asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cancelled).toBe(true);
  });
});
