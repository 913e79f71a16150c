import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  type Client,
  ClientSideConnection,
  type ContentBlock,
  ndJsonStream,
  PROTOCOL_VERSION,
  type PromptResponse,
  RequestError,
  type SessionUpdate,
  type ToolCallContent,
} from '@agentclientprotocol/sdk';
import { redact } from '@arbiter/decision';
import type { SandboxedProcess } from '../../sandbox/process-sandbox.js';
import { agentSandboxSchema } from '../../sandbox/sandbox-config.js';
import { Workspace } from '../../workspace/workspace.js';
import { HarnessRuntimeError, type HarnessTurn, type RuntimeEvent } from '../harness-runtime.js';
import type { HarnessToolGate } from '../tool-gating/harness-tool-gate.js';
import { workspaceGrant } from '../tool-gating/workspace-tool-call.js';
import type { AcpAgentDefinition } from './acp-agents.js';
import { gatedAcpCall, permissionOption } from './acp-permission.js';
import { EventQueue } from './event-queue.js';

/** Where the agent's session id is kept for continuation, in the workspace's reserved folder. */
const SESSION_STATE_FILE = 'acp-session.json';
const STDERR_TAIL_BYTES = 2048;

interface SavedSession {
  readonly agent: string;
  readonly sessionId: string;
}

/** One turn against one agent process. */
export class AcpTurn {
  private readonly queue = new EventQueue<RuntimeEvent>();
  private readonly process: SandboxedProcess;
  private readonly child: ChildProcess;
  private readonly connection: ClientSideConnection;
  private readonly announced = new Set<string>();
  private readonly finished = new Set<string>();
  private readonly refusals = new Map<string, string>();
  private readonly root: string;
  private stderrTail = '';
  private sessionId: string | null = null;
  /** Updates replayed by `session/load` are history the client already has. */
  private replaying = false;
  private done = false;
  /** The turn's protocol exchange (initialize … prompt); settles when the agent answers the prompt. */
  private driving: Promise<void> | null = null;

  /**
   * Starts the agent in the sandbox and opens the turn. Rejects with SandboxUnavailableError before
   * anything starts when no sandbox can run here.
   */
  static async start(
    turn: HarnessTurn,
    agent: AcpAgentDefinition,
    executable: string,
    env: Record<string, string>,
    gate: HarnessToolGate | undefined,
    cancelGraceMs: number,
  ): Promise<AcpTurn> {
    const sandbox = agentSandboxSchema.parse(agent.sandbox ?? {});
    const process = await turn.tools.sandbox.spawn({
      argv: [executable, ...(agent.args ?? [])],
      workspace: turn.tools.workspace.root,
      purpose: 'agent',
      env,
      network: sandbox.network,
      readOnlyPaths: sandbox.readOnlyPaths,
      writablePaths: sandbox.writablePaths,
      limits: sandbox.limits,
      stdin: 'pipe',
    });
    return new AcpTurn(turn, agent, process, gate, cancelGraceMs);
  }

  private constructor(
    private readonly turn: HarnessTurn,
    private readonly agent: AcpAgentDefinition,
    process: SandboxedProcess,
    private readonly gate: HarnessToolGate | undefined,
    private readonly cancelGraceMs: number,
  ) {
    this.root = turn.tools.workspace.root;
    this.process = process;
    this.child = this.process.child;
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    // A write to a dead agent fails here; the exit handler reports it.
    this.child.stdin?.on('error', () => {});
    const stream = ndJsonStream(
      Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(this.child.stdout!) as ReadableStream<Uint8Array>,
    );
    this.connection = new ClientSideConnection(() => this.client(), stream);
  }

  async *events(): AsyncGenerator<RuntimeEvent> {
    const exited = new Promise<string>((resolve) => {
      this.child.once('error', (error) =>
        resolve(`could not be started (${(error as NodeJS.ErrnoException).code ?? 'error'})`),
      );
      this.child.once('exit', (code, signal) =>
        resolve(signal ? `was killed by ${signal}` : `exited with status ${code}`),
      );
    });
    void exited.then((how) => {
      if (this.done) return;
      const tail = redact(this.stderrTail.trim()).split('\n').slice(-5).join('\n').slice(-600);
      this.queue.fail(
        new HarnessRuntimeError(
          'harness_error',
          `The ACP agent "${this.agent.id}" ${how} before it finished the turn.${tail ? ` Its last output: ${tail}` : ''}`,
        ),
      );
    });
    const onAbort = () => void this.cancel();
    this.turn.signal.addEventListener('abort', onAbort, { once: true });
    this.driving = this.drive();
    void this.driving.then(
      () => {
        this.done = true;
        this.queue.end();
      },
      (error: unknown) => {
        if (this.turn.signal.aborted) {
          this.done = true;
          this.queue.end();
          return;
        }
        // The exit handler words a crash better than the broken pipe that preceded it.
        setTimeout(() => {
          this.done = true;
          this.queue.fail(
            error instanceof HarnessRuntimeError
              ? error
              : new HarnessRuntimeError(
                  'harness_error',
                  `The ACP agent "${this.agent.id}" failed: ${redact(errorMessage(error)).slice(0, 300)}`,
                ),
          );
        }, 50).unref();
      },
    );
    try {
      yield* this.queue.drain();
    } finally {
      this.turn.signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Ends the agent process: politely first, then for sure. A cancelled turn first lets the agent
   * answer its prompt (ACP's cancellation: `session/cancel`, then the prompt ends `cancelled`), for at
   * most the cancel grace; terminating at once could kill it before it has read `session/cancel`.
   */
  stop(): void {
    this.done = true;
    const exited = () => this.child.exitCode !== null || this.child.signalCode !== null;
    if (exited()) return;
    const terminate = () => {
      if (exited()) return;
      this.child.kill('SIGTERM');
      const force = setTimeout(() => this.process.kill(), 1000);
      force.unref();
      this.child.once('exit', () => clearTimeout(force));
    };
    if (!this.turn.signal.aborted || this.driving === null) {
      terminate();
      return;
    }
    let grace: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => {
      grace = setTimeout(resolve, this.cancelGraceMs);
      grace.unref();
    });
    void Promise.race([this.driving.catch(() => {}), graceOver]).then(() => {
      clearTimeout(grace);
      terminate();
    });
  }

  private async drive(): Promise<void> {
    const init = await this.connection.initialize({
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
      clientInfo: { name: 'arbiter', version: '0.1.0' },
    });
    const enabledMcp = (this.turn.harness.mcpServers ?? []).filter((server) => server.enabled !== false);
    for (const server of enabledMcp)
      this.queue.push({
        type: 'warning',
        code: 'arbiter_mcp_not_supported',
        message: `MCP servers of the harness are not passed to ACP agents, so "${server.name}" was not used.`,
      });
    if (this.turn.maxOutputTokens !== null)
      this.queue.push({
        type: 'warning',
        code: 'arbiter_max_output_tokens_unenforced',
        message: 'ACP agents have no output-token limit; max_output_tokens is not enforced for this turn.',
      });
    let withHistory = this.turn.conversation.length > 0;
    const saved = this.savedSession();
    if (withHistory && saved && init.agentCapabilities?.loadSession) {
      this.replaying = true;
      try {
        await this.connection.loadSession({ sessionId: saved.sessionId, cwd: this.root, mcpServers: [] });
        this.sessionId = saved.sessionId;
        withHistory = false;
      } catch {
        this.queue.push({
          type: 'warning',
          code: 'arbiter_acp_session_not_loaded',
          message:
            'The agent could not reload its earlier session; the earlier turns are given in the prompt instead.',
        });
      } finally {
        this.replaying = false;
      }
    }
    if (!this.sessionId) {
      const created = await this.connection.newSession({ cwd: this.root, mcpServers: [] });
      this.sessionId = created.sessionId;
      this.saveSession(created.sessionId);
    }
    if (this.turn.signal.aborted) return;
    const response = await this.connection.prompt({
      sessionId: this.sessionId,
      prompt: this.promptBlocks(withHistory),
    });
    this.finish(response);
  }

  private finish(response: PromptResponse): void {
    if (this.turn.signal.aborted) return;
    for (const id of this.announced)
      if (!this.finished.has(id))
        this.toolResult(id, this.refusals.get(id) ?? 'The agent did not report a result.');
    if (response.stopReason === 'cancelled')
      throw new HarnessRuntimeError(
        'harness_error',
        `The ACP agent "${this.agent.id}" cancelled the turn itself.`,
      );
    if (response.stopReason === 'refusal')
      this.queue.push({
        type: 'warning',
        code: 'arbiter_agent_refused',
        message: 'The agent refused to continue this turn.',
      });
    if (response.stopReason === 'max_turn_requests')
      this.queue.push({
        type: 'warning',
        code: 'arbiter_agent_turn_limit',
        message: 'The agent stopped at its own limit of model requests for one turn.',
      });
    const usage = response.usage
      ? { inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens }
      : null;
    this.queue.push({
      type: 'finish',
      reason: response.stopReason === 'max_tokens' ? 'max_output_tokens' : 'stop',
      usage,
    });
  }

  private async cancel(): Promise<void> {
    if (this.sessionId) await this.connection.cancel({ sessionId: this.sessionId }).catch(() => {});
    // The agent answers the prompt with `cancelled`; one that does not is stopped anyway.
    const grace = setTimeout(() => {
      this.done = true;
      this.queue.end();
    }, this.cancelGraceMs);
    grace.unref();
  }

  private promptBlocks(withHistory: boolean): ContentBlock[] {
    const parts: string[] = [];
    if (this.turn.instructions) parts.push(`Instructions:\n${this.turn.instructions}`);
    if (withHistory) {
      const transcript = this.turn.conversation
        .map((message) => `${message.role}: ${message.text}`)
        .join('\n\n');
      parts.push(`Earlier turns of this conversation:\n${transcript}`);
    }
    parts.push(parts.length > 0 ? `Task:\n${this.turn.text}` : this.turn.text);
    const blocks: ContentBlock[] = [{ type: 'text', text: parts.join('\n\n') }];
    for (const file of this.turn.files)
      blocks.push({
        type: 'resource_link',
        uri: `file://${path.join(this.root, file.path)}`,
        name: file.filename,
        mimeType: file.mediaType,
      });
    return blocks;
  }

  private client(): Client {
    return {
      sessionUpdate: (notification) => {
        if (!this.replaying && notification.sessionId === this.sessionId) this.update(notification.update);
      },
      requestPermission: async (request) => {
        const toolCall = request.toolCall;
        if (this.turn.signal.aborted) return { outcome: { outcome: 'cancelled' } };
        this.announce(toolCall.toolCallId, toolCall.title ?? toolCall.kind ?? 'tool', toolCall.rawInput);
        const call = gatedAcpCall(toolCall);
        const disabled = disabledToolOf(call.tool, this.turn.harness.disabledTools ?? []);
        let refusal: string | null = disabled
          ? `refused: the tool "${disabled}" is disabled for this harness.`
          : 'refused: this server has no tool gate, so no permission is given.';
        if (this.gate && !disabled) {
          const outcome = await this.gate.review(call, {
            sessionId: this.turn.sessionId,
            responseId: this.turn.responseId,
            callId: toolCall.toolCallId,
            task: this.turn.text,
            cwd: this.root,
            grant: workspaceGrant(this.turn.harness.disabledTools ?? []),
            signal: this.turn.signal,
          });
          refusal = outcome.allowed ? null : outcome.refusal;
          if (!refusal && call.tool === 'Bash')
            refusal = this.gate.guardShellCommand(String(call.arguments.command ?? ''), this.root);
        }
        if (this.turn.signal.aborted) return { outcome: { outcome: 'cancelled' } };
        if (refusal) this.refusals.set(toolCall.toolCallId, refusal);
        const option = permissionOption(request.options, refusal === null);
        return option
          ? { outcome: { outcome: 'selected', optionId: option.optionId } }
          : { outcome: { outcome: 'cancelled' } };
      },
      readTextFile: async (request) => {
        const text = await this.confinedAsync(() => this.turn.tools.read(this.relative(request.path)));
        if (request.line == null && request.limit == null) return { content: text };
        const lines = text.split('\n');
        const start = Math.max(0, (request.line ?? 1) - 1);
        const end = request.limit == null ? undefined : start + request.limit;
        return { content: lines.slice(start, end).join('\n') };
      },
      writeTextFile: async (request) => {
        this.confined(() => this.turn.tools.write(this.relative(request.path), request.content));
        return {};
      },
    };
  }

  private update(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type === 'text')
          this.queue.push({ type: 'text-delta', text: update.content.text });
        break;
      case 'agent_thought_chunk':
        if (update.content.type === 'text')
          this.queue.push({ type: 'reasoning-delta', text: update.content.text });
        break;
      case 'tool_call':
        this.announce(update.toolCallId, update.title, update.rawInput);
        if (update.status === 'completed' || update.status === 'failed')
          this.toolResult(update.toolCallId, contentText(update.content, update.rawOutput));
        break;
      case 'tool_call_update':
        this.announce(update.toolCallId, update.title ?? update.kind ?? 'tool', update.rawInput);
        if (update.status === 'completed' || update.status === 'failed') {
          const text = contentText(update.content, update.rawOutput);
          const refusal = this.refusals.get(update.toolCallId);
          this.toolResult(update.toolCallId, update.status === 'failed' && refusal ? refusal : text);
        }
        break;
      case 'plan': {
        const lines = update.entries.map((entry) => `- [${entry.status}] ${entry.content}`);
        this.queue.push({ type: 'reasoning-delta', text: `Plan:\n${lines.join('\n')}\n` });
        break;
      }
      default:
        // Modes, commands, config and session info have no UHP counterpart.
        break;
    }
  }

  private announce(callId: string, name: string, rawInput: unknown): void {
    if (this.announced.has(callId)) return;
    this.announced.add(callId);
    this.queue.push({ type: 'tool-call', callId, name, arguments: JSON.stringify(rawInput ?? {}) });
  }

  private toolResult(callId: string, output: string): void {
    if (this.finished.has(callId)) return;
    this.finished.add(callId);
    this.queue.push({ type: 'tool-result', callId, output });
  }

  /** ACP paths are absolute; the workspace tools take them relative and refuse anything outside. */
  private relative(target: string): string {
    return path.isAbsolute(target) ? path.relative(this.root, target) : target;
  }

  private async confinedAsync<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw RequestError.invalidParams(undefined, errorMessage(error));
    }
  }

  private confined<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw RequestError.invalidParams(undefined, errorMessage(error));
    }
  }

  private savedSession(): SavedSession | null {
    try {
      const saved = JSON.parse(
        Workspace.readReserved(this.root, SESSION_STATE_FILE) ?? 'null',
      ) as SavedSession | null;
      return saved?.agent === this.agent.id && typeof saved.sessionId === 'string' ? saved : null;
    } catch {
      return null;
    }
  }

  private saveSession(sessionId: string): void {
    // Through no-follow handles: the agent shares this folder and may have planted a link here.
    Workspace.writeReserved(
      this.root,
      SESSION_STATE_FILE,
      JSON.stringify({ agent: this.agent.id, sessionId } satisfies SavedSession),
    );
  }
}

/** Workspace tool names (as `disabledTools` lists them) of the gate's tools. */
const WORKSPACE_TOOL_OF: Readonly<Record<string, string>> = {
  Bash: 'shell',
  Read: 'read',
  Edit: 'edit',
  Write: 'write',
  Grep: 'search',
  LS: 'list',
};

/** The harness's `disabledTools` are a hard block, before the gate is asked. */
function disabledToolOf(gateTool: string, disabledTools: readonly string[]): string | null {
  const name = Object.hasOwn(WORKSPACE_TOOL_OF, gateTool) ? WORKSPACE_TOOL_OF[gateTool] : undefined;
  return name && disabledTools.includes(name) ? name : null;
}

function contentText(content: readonly ToolCallContent[] | null | undefined, rawOutput: unknown): string {
  const parts: string[] = [];
  for (const item of content ?? []) {
    if (item.type === 'content' && item.content.type === 'text') parts.push(item.content.text);
    else if (item.type === 'diff') parts.push(`[diff of ${item.path}]`);
    else if (item.type === 'terminal') parts.push(`[terminal ${item.terminalId}]`);
  }
  if (parts.length > 0) return parts.join('\n');
  return rawOutput === undefined || rawOutput === null ? '' : JSON.stringify(rawOutput);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
