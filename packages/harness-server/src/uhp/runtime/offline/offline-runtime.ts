import { sleepOn, systemClock } from '@arbiter/decision';
import { SandboxUnavailableError } from '../../sandbox/process-sandbox.js';
import {
  type HarnessRuntime,
  HarnessRuntimeError,
  type HarnessTurn,
  type RuntimeEvent,
  type RuntimeModel,
} from '../harness-runtime.js';
import { toolError, toolFailure } from '../tool-failure.js';
import type { HarnessToolGate } from '../tool-gating/harness-tool-gate.js';
import { gatedWorkspaceCall, workspaceGrant } from '../tool-gating/workspace-tool-call.js';
import { type OfflineStep, parseOfflineDirectives } from './offline-directives.js';

export const OFFLINE_MODEL_ID = 'arbiter-offline';
export const OFFLINE_MODEL_LABEL = 'Arbiter offline model (deterministic, no network; follows @-directives)';

export interface OfflineRuntimeOptions {
  /** Pause before each streamed fragment, so progress is visible. Tests set 0. */
  readonly chunkDelayMs?: number;
  /** The gate every tool call passes first; without one the directives run ungated. */
  readonly gate?: HarnessToolGate;
  /** How the model waits (its pace and `@sleep`): the server's task clock, so tests drive it. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Fragments are whitespace-delimited words with their trailing space; also the token unit. */
function fragments(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/**
 * The `agent` base driven by the deterministic offline model: it performs the directives in the task
 * text with the workspace tools and streams what it does at a visible pace. Its tokens are the
 * fragments above, so its usage is exact for itself (and labelled as this model's, not a provider's).
 */
export class OfflineAgentRuntime implements HarnessRuntime {
  readonly base = 'agent';
  readonly label = "Arbiter agent (Arbiter's own loop and workspace tools)";
  readonly backend = 'offline';
  readonly defaultModel = OFFLINE_MODEL_ID;
  private readonly chunkDelayMs: number;
  private readonly gate: HarnessToolGate | undefined;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(options: OfflineRuntimeOptions = {}) {
    this.chunkDelayMs = options.chunkDelayMs ?? 80;
    this.gate = options.gate;
    this.sleep = options.sleep ?? ((ms, signal) => sleepOn(systemClock, ms, signal));
  }

  models(): readonly RuntimeModel[] {
    return [
      { id: OFFLINE_MODEL_ID, label: OFFLINE_MODEL_LABEL, backend: this.backend, available: () => true },
    ];
  }

  async *run(turn: HarnessTurn): AsyncIterable<RuntimeEvent> {
    const inputTokens =
      fragments(turn.text).length +
      fragments(turn.instructions ?? '').length +
      turn.conversation.reduce((sum, message) => sum + fragments(message.text).length, 0);
    let outputTokens = 0;
    const budget = turn.maxOutputTokens;
    // With no delay the model still yields to the event loop every few fragments, so one long turn
    // cannot starve other requests (yielding on every fragment would cost most of the throughput).
    let sinceYield = 0;
    const pace = async () => {
      if (this.chunkDelayMs > 0) await this.sleep(this.chunkDelayMs, turn.signal);
      else if (++sinceYield >= 16) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (turn.signal.aborted) throw turn.signal.reason;
    };
    // Yields fragments until the output budget is spent; false means the budget stopped it.
    const stream = async function* (type: 'text-delta' | 'reasoning-delta', text: string) {
      for (const fragment of fragments(text)) {
        if (budget !== null && outputTokens >= budget) return false;
        await pace();
        outputTokens++;
        yield { type, text: fragment } as RuntimeEvent;
      }
      return true;
    };
    const finish = (reason: 'stop' | 'max_output_tokens'): RuntimeEvent => ({
      type: 'finish',
      reason,
      usage: { inputTokens, outputTokens },
    });

    // The offline model has no MCP client: say so visibly instead of silently dropping the servers.
    for (const server of turn.harness.mcpServers ?? []) {
      if (server.enabled === false) continue;
      yield {
        type: 'warning',
        code: 'arbiter_mcp_not_supported',
        message: `The offline model does not call MCP tools, so the MCP server "${server.name}" was not used.`,
      };
    }
    const steps = parseOfflineDirectives(turn.text);
    const thought = `Offline deterministic model: ${steps.length} directive(s) found in the task.`;
    if (!(yield* stream('reasoning-delta', thought))) return yield finish('max_output_tokens');
    if (steps.length === 0) steps.push({ kind: 'say', text: await this.defaultReply(turn) });

    let callIndex = 0;
    let spoke = false;
    for (const step of steps) {
      if (step.kind === 'sleep') {
        await this.sleep(step.ms, turn.signal);
        continue;
      }
      if (step.kind === 'fail') throw new HarnessRuntimeError('harness_error', step.message);
      if (step.kind === 'think') {
        if (!(yield* stream('reasoning-delta', ` ${step.text}`))) return yield finish('max_output_tokens');
        continue;
      }
      if (step.kind === 'say' || step.kind === 'history') {
        const text = step.kind === 'say' ? step.text : this.historyReply(turn);
        if (!(yield* stream('text-delta', spoke ? `\n${text}` : text)))
          return yield finish('max_output_tokens');
        spoke = true;
        continue;
      }
      const callId = `call_${++callIndex}`;
      await pace();
      yield { type: 'tool-call', callId, name: step.name, arguments: JSON.stringify(step.arguments) };
      const outcome = await this.runTool(step, turn, callId);
      yield { type: 'tool-result', callId, output: outcome.output };
      if (outcome.sandboxRefusal)
        yield { type: 'warning', code: 'arbiter_sandbox_unavailable', message: outcome.sandboxRefusal };
    }
    yield finish('stop');
  }

  private async runTool(
    step: Extract<OfflineStep, { kind: 'tool' }>,
    turn: HarnessTurn,
    callId: string,
  ): Promise<{ output: string; sandboxRefusal?: string }> {
    try {
      return { output: await this.performTool(step, turn, callId) };
    } catch (error) {
      if (turn.signal.aborted || !(error instanceof SandboxUnavailableError)) throw error;
      return { output: toolFailure(step.name, error), sandboxRefusal: error.message };
    }
  }

  private async performTool(
    step: Extract<OfflineStep, { kind: 'tool' }>,
    turn: HarnessTurn,
    callId: string,
  ): Promise<string> {
    const { tools } = turn;
    // Disabled tools are a hard block here: the call is refused, and the refusal is the tool's result.
    if (turn.harness.disabledTools?.includes(step.name))
      return toolError(`the tool "${step.name}" is disabled for this harness`);
    if (this.gate) {
      const cwd = tools.workspace.root;
      const outcome = await this.gate.review(gatedWorkspaceCall(step.name, step.arguments), {
        sessionId: turn.sessionId,
        responseId: turn.responseId,
        callId,
        task: turn.text,
        cwd,
        grant: workspaceGrant(turn.harness.disabledTools ?? []),
        signal: turn.signal,
      });
      if (!outcome.allowed) return toolError(outcome.refusal);
      const pushRefusal =
        step.name === 'shell' ? this.gate.guardShellCommand(step.arguments.command ?? '', cwd) : null;
      if (pushRefusal) return toolError(pushRefusal);
      // A cancel that arrived while the gate was deciding must not start the tool.
      turn.signal.throwIfAborted();
    }
    try {
      switch (step.name) {
        case 'write':
          return `wrote ${tools.write(step.arguments.path ?? '', step.arguments.content ?? '')} bytes`;
        case 'read':
          return await tools.read(step.arguments.path ?? '');
        case 'list':
          return tools.list(step.arguments.path ?? '.').join('\n');
        default: {
          const result = await tools.shell(step.arguments.command ?? '', turn.signal);
          if (result.timedOut) return `[timed out]\n${result.output}`;
          return `[exit ${result.exitCode}]\n${result.output}`;
        }
      }
    } catch (error) {
      if (turn.signal.aborted || error instanceof SandboxUnavailableError) throw error;
      return toolFailure(step.name, error);
    }
  }

  private async defaultReply(turn: HarnessTurn): Promise<string> {
    const attached = await Promise.all(
      turn.files
        .filter((file) => file.mediaType.startsWith('text/'))
        .map(async (file) => {
          try {
            return `Attached ${file.filename}: ${(await turn.tools.read(file.path)).slice(0, 2000)}`;
          } catch {
            return `Attached ${file.filename}: (unreadable)`;
          }
        }),
    );
    return [
      `This is ${OFFLINE_MODEL_ID}, Arbiter's deterministic offline model, and it did nothing with this task: it does not read free text, it only performs @-directives (@say, @write path <<<text>>>, @read, @list, @shell, …; see docs/uhp-server.md). ` +
        'To have a language model do the task, configure a provider in the `agent` section of the server configuration (docs/harnesses.md) and ask for its model.',
      ...attached,
    ].join('\n');
  }

  private historyReply(turn: HarnessTurn): string {
    const earlier = turn.conversation.filter((message) => message.role === 'user');
    const last = earlier.at(-1);
    return `Earlier turns: ${earlier.length}.${last ? ` Previous task: ${last.text.slice(0, 500)}` : ''}`;
  }
}
