import { redact } from '@arbiter/decision';
import { APICallError, type ModelMessage, type StepResult, stepCountIs, streamText, type ToolSet } from 'ai';
import {
  type HarnessRuntime,
  HarnessRuntimeError,
  type HarnessTurn,
  type RuntimeEvent,
  type RuntimeModel,
} from '../harness-runtime.js';
import type { OfflineAgentRuntime } from '../offline/offline-runtime.js';
import { toolFailure } from '../tool-failure.js';
import type { HarnessToolGate } from '../tool-gating/harness-tool-gate.js';
import { buildAgentTools } from './agent-tools.js';
import { McpConnections } from './mcp-connection.js';
import { ProviderModel, type ReachabilityProbeOptions } from './provider-model.js';
import type { ProviderModelConfig } from './provider-model-config.js';

/** Steps (model calls) of one turn when the harness sets no `maxStep`. */
export const DEFAULT_MAX_AGENT_STEPS = 50;

export interface AgentRuntimeOptions {
  /** The offline model, served alongside the providers under the same base. */
  readonly offline: OfflineAgentRuntime;
  readonly models: readonly ProviderModelConfig[];
  readonly gate: HarnessToolGate;
  /** The model of new harnesses; default the first configured provider model. */
  readonly defaultModel?: string;
  readonly probe?: ReachabilityProbeOptions;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The `agent` base: Arbiter's own loop over a model provider (Vercel AI SDK `streamText` with
 * tools), with the workspace tools and the harness's MCP tools behind the tool gate. The offline
 * model keeps its own deterministic runtime under the same base.
 */
export class AgentRuntime implements HarnessRuntime {
  readonly base = 'agent';
  readonly label = "Arbiter agent (Arbiter's own loop and workspace tools)";
  readonly backend = 'ai-sdk';
  readonly defaultModel: string;
  private readonly providers: Map<string, ProviderModel>;

  constructor(private readonly options: AgentRuntimeOptions) {
    this.providers = new Map(
      options.models.map((config) => [config.id, new ProviderModel(config, options.probe, options.env)]),
    );
    this.defaultModel = options.defaultModel ?? options.models[0]?.id ?? options.offline.defaultModel;
  }

  models(): readonly RuntimeModel[] {
    return [...this.options.offline.models(), ...this.providers.values()];
  }

  providerModel(id: string): ProviderModel | undefined {
    return this.providers.get(id);
  }

  async *run(turn: HarnessTurn): AsyncIterable<RuntimeEvent> {
    const provider = this.providers.get(turn.model);
    if (!provider) {
      yield* this.options.offline.run(turn);
      return;
    }
    const mcp = await McpConnections.open(turn.harness.mcpServers ?? [], turn.signal);
    try {
      for (const failure of mcp.failures)
        yield {
          type: 'warning',
          code: 'arbiter_mcp_unavailable',
          message: `The MCP server "${failure.server}" could not be reached (${failure.message}); the turn runs without its tools.`,
        };
      yield* this.loop(turn, provider, mcp);
    } finally {
      await mcp.close();
    }
  }

  private async *loop(
    turn: HarnessTurn,
    provider: ProviderModel,
    mcp: McpConnections,
  ): AsyncIterable<RuntimeEvent> {
    // Refusals for want of a sandbox become the tool's result for the model and, once per turn,
    // an event the client sees, like the offline model's.
    let sandboxRefusal: string | null = null;
    let refusalReported = false;
    const tools = buildAgentTools(turn, {
      gate: this.options.gate,
      mcp,
      onSandboxUnavailable: (message) => {
        sandboxRefusal = message;
      },
    });
    const maxOutput = turn.maxOutputTokens;
    let outputSoFar = 0;
    // The runner counts tool calls against `maxStep` and aborts past it; the SDK's own cap bounds
    // model calls, one more than the tool budget so the model can answer after its last tool.
    const maxSteps = (turn.harness.maxStep ?? DEFAULT_MAX_AGENT_STEPS - 1) + 1;
    const budgetSpent = ({ steps }: { steps: StepResult<ToolSet>[] }) => {
      outputSoFar = steps.reduce((sum, step) => sum + (step.usage.outputTokens ?? 0), 0);
      return maxOutput !== null && outputSoFar >= maxOutput;
    };
    const result = streamText({
      model: provider.languageModel(),
      system: systemPrompt(turn, tools),
      messages: messagesOf(turn),
      tools,
      stopWhen: [stepCountIs(maxSteps), budgetSpent],
      ...(maxOutput === null ? {} : { maxOutputTokens: maxOutput }),
      abortSignal: turn.signal,
      maxRetries: 1,
      // The SDK's default prints the raw error to stderr, response body included, and providers
      // echo the key in a 401's body. The error reaches the loop below as an `error` part and
      // becomes the task's (redacted) error instead.
      onError: () => undefined,
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          if (part.text !== '') yield { type: 'text-delta', text: part.text };
          break;
        case 'reasoning-delta':
          if (part.text !== '') yield { type: 'reasoning-delta', text: part.text };
          break;
        case 'tool-call':
          yield {
            type: 'tool-call',
            callId: part.toolCallId,
            name: part.toolName,
            arguments: JSON.stringify(part.input ?? {}),
          };
          break;
        case 'tool-result':
          yield {
            type: 'tool-result',
            callId: part.toolCallId,
            output: typeof part.output === 'string' ? part.output : JSON.stringify(part.output),
          };
          if (sandboxRefusal !== null && !refusalReported) {
            refusalReported = true;
            yield { type: 'warning', code: 'arbiter_sandbox_unavailable', message: sandboxRefusal };
          }
          break;
        case 'tool-error':
          if (turn.signal.aborted) return;
          yield {
            type: 'tool-result',
            callId: part.toolCallId,
            // The SDK's own verdict on the model's arguments: the model's to fix, so it is told.
            output: toolFailure(part.toolName, part.error, 'reported'),
          };
          break;
        case 'error':
          if (turn.signal.aborted) return;
          throw providerFailure(part.error, provider);
        case 'abort':
          return;
        case 'finish': {
          const usage = part.totalUsage;
          const known = usage.inputTokens !== undefined && usage.outputTokens !== undefined;
          const truncated =
            part.finishReason === 'length' ||
            (maxOutput !== null && (usage.outputTokens ?? outputSoFar) >= maxOutput);
          yield {
            type: 'finish',
            reason: truncated ? 'max_output_tokens' : 'stop',
            usage: known
              ? { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 }
              : null,
          };
          break;
        }
        default:
          break;
      }
    }
  }
}

/** The harness's system prompt and the task's instructions, then where things are in the workspace. */
function systemPrompt(turn: HarnessTurn, tools: ToolSet): string {
  const parts: string[] = [];
  // The task service already joins the harness's systemPrompt and the task's instructions here.
  if (turn.instructions) parts.push(turn.instructions);
  const names = Object.keys(tools);
  parts.push(
    [
      'You work in a private workspace directory; every path is relative to it.',
      names.length > 0
        ? `Your tools: ${names.join(', ')}. Each call is reviewed by a tool gate; a refused call returns a message saying why — read it and change course instead of retrying.`
        : 'You have no tools in this run.',
    ].join(' '),
  );
  const skills = (turn.harness.skills ?? []).filter((skill) => skill.enabled !== false);
  if (skills.length > 0)
    parts.push(
      `Skills are folders you can read: ${skills.map((skill) => `.arbiter/skills/${skill.name}/SKILL.md`).join(', ')}. Read a skill's SKILL.md before using it.`,
    );
  if (turn.files.length > 0)
    parts.push(`Files handed in with this task: ${turn.files.map((file) => file.path).join(', ')}.`);
  return parts.join('\n\n');
}

/**
 * The earlier turns, then this turn's task. An earlier assistant turn's tool calls go back as calls
 * with their results (as the provider saw them then), followed by its text.
 */
function messagesOf(turn: HarnessTurn): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const message of turn.conversation) {
    if (message.role === 'user') {
      messages.push({ role: 'user', content: message.text });
      continue;
    }
    const calls = message.toolCalls ?? [];
    if (calls.length > 0) {
      messages.push({
        role: 'assistant',
        content: calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.callId,
          toolName: call.name,
          input: parseArguments(call.arguments),
        })),
      });
      messages.push({
        role: 'tool',
        content: calls.map((call) => ({
          type: 'tool-result' as const,
          toolCallId: call.callId,
          toolName: call.name,
          output: {
            type: 'text' as const,
            value: call.output ?? 'no result: the turn ended before the tool finished',
          },
        })),
      });
    }
    if (message.text !== '') messages.push({ role: 'assistant', content: message.text });
  }
  messages.push({ role: 'user', content: turn.text });
  return messages;
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { arguments: text };
  }
}

/** A provider failure as the task's error: status and a short cause, never the key or request headers. */
function providerFailure(error: unknown, provider: ProviderModel): HarnessRuntimeError {
  const secret = provider.secret();
  // The configured key by value, then every secret shape the redaction rules know (another key
  // the provider quotes, a token in a URL).
  const scrub = (text: string) => redact(secret ? text.replaceAll(secret, '[redacted]') : text);
  if (APICallError.isInstance(error)) {
    if (error.statusCode === 402)
      return new HarnessRuntimeError(
        'provider_error',
        `The model provider refused the request for lack of credit (HTTP 402); lower max_output_tokens or add credit with the provider.`,
      );
    const status = error.statusCode === undefined ? 'no HTTP status' : `HTTP ${error.statusCode}`;
    return new HarnessRuntimeError(
      'provider_error',
      `The model provider ${provider.id} failed (${status}): ${scrub(error.message).slice(0, 300)}`,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new HarnessRuntimeError(
    'provider_error',
    `The model provider ${provider.id} failed: ${scrub(message).slice(0, 300)}`,
  );
}
