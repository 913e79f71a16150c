import { EventSourceParserStream } from 'eventsource-parser/stream';

/** One Server-Sent Events message as it arrived. */
export interface SseMessage {
  readonly id: string | undefined;
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * Reads SSE messages from a response body with eventsource-parser, which handles the framing rules
 * (CRLF, multi-line data, comments used as keep-alives, split chunks) the specification relies on.
 */
export async function* readSseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      yield { id: value.id, event: value.event, data: value.data };
    }
  } finally {
    // Cancelling the reader propagates up the pipe and releases the connection when we stop early.
    await reader.cancel().catch(() => {
      // The body may already be closed or errored; there is nothing left to release.
    });
  }
}
