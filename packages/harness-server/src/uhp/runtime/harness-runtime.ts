import type { Harness, UhpErrorCode } from '@arbiter/uhp/wire';
import type { WorkspaceTools } from '../workspace/workspace-tools.js';

/** One message of the session's conversation, oldest first, as the runtime sees it. */
export interface ConversationMessage {
  readonly role: 'user' | 'assistant';
  readonly text: string;
  /** The tool calls an assistant turn made before its text, with their results (absent: none). */
  readonly toolCalls?: readonly ToolExchange[];
}

/** One tool call of an earlier turn and what it returned (`null`: the turn ended before a result). */
export interface ToolExchange {
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
  readonly output: string | null;
}

/** A file the task handed in, already materialised in the workspace at `path`. */
export interface TurnInputFile {
  readonly path: string;
  readonly filename: string;
  readonly mediaType: string;
}

/** Everything a runtime needs to run one turn; I/O arrives through `tools` and `signal`. */
export interface HarnessTurn {
  /** The session and response this turn belongs to (the gate's audit log names them). */
  readonly sessionId: string;
  readonly responseId: string;
  readonly harness: Harness;
  readonly model: string;
  readonly instructions: string | null;
  readonly conversation: readonly ConversationMessage[];
  readonly text: string;
  readonly files: readonly TurnInputFile[];
  readonly tools: WorkspaceTools;
  readonly maxOutputTokens: number | null;
  /** Aborted on cancel, timeout, step budget or shutdown; a runtime stops promptly and returns. */
  readonly signal: AbortSignal;
}

/**
 * Normalised events of one turn. Noun-verb names; the task runner turns them into UHP stream events,
 * so a runtime never knows about sequence numbers, items or the event log.
 */
export type RuntimeEvent =
  | { readonly type: 'reasoning-delta'; readonly text: string }
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'tool-call'; readonly callId: string; readonly name: string; readonly arguments: string }
  | { readonly type: 'tool-result'; readonly callId: string; readonly output: string }
  /** A workspace file the turn produced, cited even if it existed before the turn (relative path). */
  | { readonly type: 'file-produced'; readonly path: string }
  /** Streamed as an `error` event; the code is registered (`UHP_ERROR_REGISTRY`), like every code the server emits. */
  | { readonly type: 'warning'; readonly code: UhpErrorCode; readonly message: string }
  | {
      readonly type: 'finish';
      readonly reason: 'stop' | 'max_output_tokens';
      /** `null` when the runtime cannot account for usage: never an invented zero. */
      readonly usage: { readonly inputTokens: number; readonly outputTokens: number } | null;
    };

/** A model a runtime can serve, with availability computed when asked. */
export interface RuntimeModel {
  readonly id: string;
  readonly label: string;
  readonly backend: string;
  available(): boolean;
}

/** Failure the runtime reports as the task's error (`harness_error`, `provider_error`, `timeout`). */
export class HarnessRuntimeError extends Error {
  constructor(
    readonly code: 'harness_error' | 'provider_error' | 'timeout',
    message: string,
  ) {
    super(message);
    this.name = 'HarnessRuntimeError';
  }
}

/**
 * A harness base: turns one task turn into a stream of normalised events. Implementations:
 * `offline/` (the deterministic offline model of the `agent` base); model providers and ACP agents
 * plug in here next.
 */
export interface HarnessRuntime {
  readonly base: string;
  readonly label: string;
  readonly backend: string;
  readonly defaultModel: string;
  models(): readonly RuntimeModel[];
  run(turn: HarnessTurn): AsyncIterable<RuntimeEvent>;
}
