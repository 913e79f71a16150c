import type { ResponseStatus, UhpResponse } from '../wire/response.js';
import type { Usage } from '../wire/usage.js';

/** An artifact the task produced, as cited on the assistant message. */
export interface ProducedFile {
  readonly containerId: string;
  readonly fileId: string;
  readonly filename: string;
  readonly downloadUrl: string | null;
}

/**
 * What a UHP stream means to a client, independent of the wire's event vocabulary. The wire tells
 * what happened in protocol terms (`response.output_text.delta`); these say it in product terms.
 */
export type UhpClientEvent =
  | {
      readonly type: 'status';
      readonly status: ResponseStatus;
      readonly responseId: string;
      readonly sessionId: string | null;
      readonly harnessId: string | null;
      readonly model: string;
    }
  | { readonly type: 'text-delta'; readonly itemId: string; readonly delta: string }
  /** The stored text of an item differs from what was streamed (events were lost); this is the truth. */
  | { readonly type: 'text-snapshot'; readonly itemId: string; readonly text: string }
  | { readonly type: 'reasoning-delta'; readonly itemId: string; readonly delta: string }
  | { readonly type: 'tool-call'; readonly callId: string; readonly name: string; readonly arguments: string }
  | { readonly type: 'tool-result'; readonly callId: string; readonly output: string }
  | { readonly type: 'file-produced'; readonly file: ProducedFile }
  /** `null` when the server does not know the usage; never an invented zero. */
  | { readonly type: 'usage'; readonly usage: Usage | null }
  /** An error that did not end the task (the wire `error` event). */
  | { readonly type: 'error'; readonly code: string; readonly message: string; readonly param: string | null }
  | { readonly type: 'sequence-gap'; readonly expected: number; readonly received: number }
  /**
   * The connection dropped and the client picked the task up again: `resume` (Last-Event-ID), `reread`
   * (the stored response), or `repeat` (the same idempotent POST, when the task had not been named yet).
   */
  | { readonly type: 'reconnect'; readonly mode: 'resume' | 'reread' | 'repeat'; readonly attempt: number }
  /** Always last: the final response, as stored by the server. */
  | { readonly type: 'done'; readonly response: UhpResponse };

export type UhpClientEventType = UhpClientEvent['type'];
