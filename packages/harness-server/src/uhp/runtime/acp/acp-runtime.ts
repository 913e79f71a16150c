import path from 'node:path';
import { findExecutable } from '../../sandbox/executable-lookup.js';
import { SandboxUnavailableError } from '../../sandbox/process-sandbox.js';
import {
  type HarnessRuntime,
  HarnessRuntimeError,
  type HarnessTurn,
  type RuntimeEvent,
  type RuntimeModel,
} from '../harness-runtime.js';
import type { HarnessToolGate } from '../tool-gating/harness-tool-gate.js';
import { ACP_PRESETS, type AcpAgentDefinition, agentAvailable, agentEnvironment } from './acp-agents.js';

export interface AcpRuntimeOptions {
  /** Operator-configured agents; they come before the presets and may replace one by id. */
  readonly agents?: readonly AcpAgentDefinition[];
  /** Include the well-known presets (default true). */
  readonly presets?: boolean;
  /** Answers the agents' permission requests; without one every request is refused. */
  readonly gate?: HarnessToolGate;
  /** The environment agents are started from (default `process.env`); each gets only its share. */
  readonly env?: NodeJS.ProcessEnv;
  /** How long a cancelled agent may take to end its turn before it is killed. Default 2000 ms. */
  readonly cancelGraceMs?: number;
}

/**
 * The `acp` base: each turn starts the harness's Agent Client Protocol agent over stdio in the session
 * workspace, inside the server's process sandbox (network on unless its definition turns it off),
 * prompts it, and turns its `session/update` notifications into runtime events. The agent's
 * permission requests go through the tool gate; its file requests are confined to the workspace; it
 * is offered no terminal, so every program it runs runs in its own sandbox. Continuation uses `session/load` when the agent supports it, otherwise the
 * earlier turns are given in the prompt.
 */
export class AcpRuntime implements HarnessRuntime {
  readonly base = 'acp';
  readonly label = 'ACP agent (an Agent Client Protocol agent over stdio)';
  readonly backend = 'acp';
  readonly defaultModel: string;
  private readonly agents: ReadonlyMap<string, AcpAgentDefinition>;
  private readonly env: NodeJS.ProcessEnv;
  private readonly gate: HarnessToolGate | undefined;
  private readonly cancelGraceMs: number;

  constructor(options: AcpRuntimeOptions = {}) {
    const agents = new Map<string, AcpAgentDefinition>();
    for (const agent of [...(options.agents ?? []), ...(options.presets === false ? [] : ACP_PRESETS)])
      if (!agents.has(agent.id)) agents.set(agent.id, agent);
    const first = agents.keys().next();
    if (first.done) throw new Error('An ACP runtime needs at least one agent.');
    this.agents = agents;
    this.defaultModel = first.value;
    this.env = options.env ?? process.env;
    this.gate = options.gate;
    this.cancelGraceMs = options.cancelGraceMs ?? 2000;
  }

  models(): readonly RuntimeModel[] {
    return [...this.agents.values()].map((agent) => ({
      id: agent.id,
      label: agent.label ?? `${agent.id} (ACP)`,
      backend: this.backend,
      available: () => agentAvailable(agent, this.env),
    }));
  }

  async *run(turn: HarnessTurn): AsyncIterable<RuntimeEvent> {
    const agent = this.agents.get(turn.model);
    if (!agent)
      throw new HarnessRuntimeError('harness_error', `No ACP agent is configured as "${turn.model}".`);
    const executable = findExecutable(agent.command, this.env.PATH ?? '');
    if (!executable)
      throw new HarnessRuntimeError(
        'harness_error',
        `The ACP agent "${agent.id}" is not installed on this server (${path.basename(agent.command)} is not on PATH).`,
      );
    // The ACP SDK loads with the first ACP turn, not with the server (bench/decision-startup.mjs).
    const { AcpTurn } = await import('./acp-turn.js');
    let turnRun: Awaited<ReturnType<typeof AcpTurn.start>>;
    try {
      turnRun = await AcpTurn.start(
        turn,
        agent,
        executable,
        agentEnvironment(agent, this.env),
        this.gate,
        this.cancelGraceMs,
      );
    } catch (error) {
      if (error instanceof SandboxUnavailableError)
        throw new HarnessRuntimeError('harness_error', error.message);
      throw error;
    }
    try {
      yield* turnRun.events();
    } finally {
      turnRun.stop();
    }
  }
}
