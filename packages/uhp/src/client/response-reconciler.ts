import type { StreamEvent } from '../wire/event.js';
import {
  type ContainerFileCitation,
  containerFileCitationSchema,
  functionCallItemSchema,
  functionCallOutputItemSchema,
  messageItemSchema,
  type OutputItem,
  reasoningItemSchema,
} from '../wire/output-item.js';
import type { UhpResponse } from '../wire/response.js';
import type { ProducedFile, UhpClientEvent } from './client-event.js';

function producedFile(citation: ContainerFileCitation): ProducedFile {
  return {
    containerId: citation.container_id,
    fileId: citation.file_id,
    filename: citation.filename,
    downloadUrl: citation.download_url ?? null,
  };
}

/**
 * Turns wire events into client events while remembering what the client has been shown, so that any
 * response object (a terminal event's, or one re-read after a dropped connection) can be reconciled
 * against it: whatever the stream missed is emitted, and nothing is emitted twice.
 */
export class ResponseReconciler {
  readonly #text = new Map<string, string>();
  readonly #reasoning = new Map<string, string>();
  readonly #calls = new Set<string>();
  readonly #results = new Set<string>();
  readonly #files = new Set<string>();
  #status: string | null = null;

  *fromEvent(event: StreamEvent): Generator<UhpClientEvent> {
    switch (event.type) {
      case 'response.created':
      case 'response.in_progress':
        if (event.response) yield* this.#statusOf(event.response);
        return;
      case 'response.output_text.delta':
        if (event.item_id !== undefined && event.delta) {
          this.#text.set(event.item_id, (this.#text.get(event.item_id) ?? '') + event.delta);
          yield { type: 'text-delta', itemId: event.item_id, delta: event.delta };
        }
        return;
      case 'response.reasoning_summary_text.delta':
        if (event.item_id !== undefined && event.delta) {
          this.#reasoning.set(event.item_id, (this.#reasoning.get(event.item_id) ?? '') + event.delta);
          yield { type: 'reasoning-delta', itemId: event.item_id, delta: event.delta };
        }
        return;
      case 'response.output_text.annotation.added': {
        const citation = containerFileCitationSchema.safeParse(event.annotation);
        if (citation.success) yield* this.#file(citation.data);
        return;
      }
      case 'response.output_item.done':
        if (event.item) yield* this.#item(event.item, false);
        return;
      case 'error':
        yield {
          type: 'error',
          code: event.code ?? 'unknown_error',
          message: event.message ?? 'The server reported an error.',
          param: event.param ?? null,
        };
        return;
      default:
        return;
    }
  }

  /** Emits whatever `response` holds that the client has not been shown yet. */
  *fromResponse(response: UhpResponse): Generator<UhpClientEvent> {
    for (const item of response.output) yield* this.#item(item, true);
    yield* this.#statusOf(response);
  }

  *#statusOf(response: UhpResponse): Generator<UhpClientEvent> {
    if (this.#status === response.status) return;
    this.#status = response.status;
    yield {
      type: 'status',
      status: response.status,
      responseId: response.id,
      sessionId: response.metadata?.session_id ?? null,
      harnessId: response.metadata?.harness_id ?? null,
      model: response.model,
    };
  }

  *#item(item: OutputItem, reconcileText: boolean): Generator<UhpClientEvent> {
    const message = messageItemSchema.safeParse(item);
    if (message.success) {
      const text = message.data.content.map((part) => part.text).join('');
      const shown = this.#text.get(message.data.id) ?? '';
      if (reconcileText && text !== shown) {
        this.#text.set(message.data.id, text);
        yield text.startsWith(shown)
          ? { type: 'text-delta', itemId: message.data.id, delta: text.slice(shown.length) }
          : { type: 'text-snapshot', itemId: message.data.id, text };
      }
      for (const part of message.data.content) {
        for (const annotation of part.annotations) {
          const citation = containerFileCitationSchema.safeParse(annotation);
          if (citation.success) yield* this.#file(citation.data);
        }
      }
      return;
    }
    const reasoning = reasoningItemSchema.safeParse(item);
    if (reasoning.success) {
      const text = reasoning.data.summary.map((part) => part.text).join('\n');
      const shown = this.#reasoning.get(reasoning.data.id) ?? '';
      if (reconcileText && text.startsWith(shown) && text !== shown) {
        this.#reasoning.set(reasoning.data.id, text);
        yield { type: 'reasoning-delta', itemId: reasoning.data.id, delta: text.slice(shown.length) };
      }
      return;
    }
    const call = functionCallItemSchema.safeParse(item);
    if (call.success) {
      if (this.#calls.has(call.data.call_id)) return;
      this.#calls.add(call.data.call_id);
      yield {
        type: 'tool-call',
        callId: call.data.call_id,
        name: call.data.name,
        arguments: call.data.arguments,
      };
      return;
    }
    const result = functionCallOutputItemSchema.safeParse(item);
    if (result.success && !this.#results.has(result.data.call_id)) {
      this.#results.add(result.data.call_id);
      yield { type: 'tool-result', callId: result.data.call_id, output: result.data.output };
    }
  }

  *#file(citation: ContainerFileCitation): Generator<UhpClientEvent> {
    if (this.#files.has(citation.file_id)) return;
    this.#files.add(citation.file_id);
    yield { type: 'file-produced', file: producedFile(citation) };
  }
}
