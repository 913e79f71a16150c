import type { DecisionTransport, TransportOutcome } from '../client/decision-transport.js';
import type { DecisionEngine, EvaluateOptions } from '../engine-specification/decision-engine.js';
import { EngineError } from '../engine-specification/engine-error.js';
import type { DecisionRequest } from '../wire/request.js';

export interface InProcessTransportOptions {
  engine: DecisionEngine;
  /** The pin reported as `model` in results. Default: the engine's id. The request's `model` is not consulted: there is one engine. */
  model?: string;
}

/**
 * Calls a `DecisionEngine` in this process: no server, no socket, no key. The client has already
 * validated the request with the server's zod schemas; engine failures map to skips as the server
 * would map them to statuses (unavailable → retryable, timeout → retryable, error → final).
 */
export function createInProcessTransport(options: InProcessTransportOptions): DecisionTransport {
  const { engine } = options;
  const model = options.model ?? engine.engineId;
  return {
    name: 'in-process',
    async send(request, call): Promise<TransportOutcome> {
      try {
        const result = await engine.evaluate(new EngineCall(request, call));
        return { ok: true, body: { model, answers: result.answers, usage: result.usage } };
      } catch (error) {
        if (call.signal.aborted)
          return { ok: false, reason: 'aborted', message: 'aborted', retryable: false };
        if (EngineError.isInstance(error)) {
          return {
            ok: false,
            reason: 'server_error',
            message: `engine ${engine.engineId}: ${error.code}: ${error.message}`,
            retryable: error.isRetryable,
          };
        }
        const message = error instanceof Error ? error.message : String(error);
        return {
          ok: false,
          reason: 'server_error',
          message: `engine ${engine.engineId} failed: ${message}`,
          retryable: false,
        };
      }
    },
  };
}

/**
 * An engine's options with the call's signal passed on unread, so an engine that answers
 * synchronously never makes it (see CallCancellation). A class, because V8 builds an object
 * literal with a getter on a slow path that cost more than the signal it defers.
 */
class EngineCall implements EvaluateOptions {
  readonly state: DecisionRequest['state'];
  readonly questions: DecisionRequest['questions'];
  readonly pack: DecisionRequest['pack'];
  readonly #call: { readonly signal: AbortSignal };

  constructor(request: DecisionRequest, call: { readonly signal: AbortSignal }) {
    this.state = request.state;
    this.questions = request.questions;
    this.pack = request.pack;
    this.#call = call;
  }

  get signal(): AbortSignal {
    return this.#call.signal;
  }
}
