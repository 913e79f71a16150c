import { findExecutable } from '../../sandbox/executable-lookup.js';
import type { AgentSandboxInput } from '../../sandbox/sandbox-config.js';

/** An ACP agent the server can start: the command, its arguments and what of the environment it gets. */
export interface AcpAgentDefinition {
  /** The model id clients pick it by (`gemini-cli`, or an operator's own name). */
  readonly id: string;
  readonly label?: string;
  /** Executable name (looked up on PATH) or absolute path. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Names of server environment variables passed through to the agent (never the others). */
  readonly env?: readonly string[];
  /**
   * The agent's credential: it is available only when one of these variables is set (and they are
   * passed through). Empty or absent: no credential needed.
   */
  readonly credentialEnv?: readonly string[];
  /** Its sandbox: network (default on), extra host paths, limits (docs/security.md). */
  readonly sandbox?: AgentSandboxInput;
}

/**
 * Well-known ACP agents. Commands and credential variables follow each project's documentation:
 * Gemini CLI speaks ACP behind `--acp` (`--experimental-acp` before it was stable); Claude Code and Codex through Zed's adapters
 * (`claude-code-acp`, `codex-acp`); OpenCode and Goose have an `acp` subcommand.
 */
export const ACP_PRESETS: readonly AcpAgentDefinition[] = [
  {
    id: 'gemini-cli',
    label: 'Gemini CLI (ACP)',
    command: 'gemini',
    args: ['--acp'],
    credentialEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    env: ['GOOGLE_CLOUD_PROJECT', 'GOOGLE_GENAI_USE_VERTEXAI'],
  },
  {
    id: 'claude-code',
    label: 'Claude Code (ACP adapter)',
    command: 'claude-code-acp',
    credentialEnv: ['ANTHROPIC_API_KEY'],
  },
  {
    id: 'codex',
    label: 'Codex (ACP adapter)',
    command: 'codex-acp',
    credentialEnv: ['OPENAI_API_KEY'],
  },
  {
    id: 'opencode',
    label: 'OpenCode (ACP)',
    command: 'opencode',
    args: ['acp'],
    credentialEnv: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY'],
  },
  {
    id: 'goose',
    label: 'Goose (ACP)',
    command: 'goose',
    args: ['acp'],
    credentialEnv: ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_API_KEY'],
    env: ['GOOSE_PROVIDER', 'GOOSE_MODEL'],
  },
];

/** What every agent process gets besides its own variables: enough to run, no server secrets. */
const BASE_ENV = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TMPDIR'] as const;

/** Available now: the binary is installed and its credential (when it needs one) is set. */
export function agentAvailable(agent: AcpAgentDefinition, env: NodeJS.ProcessEnv = process.env): boolean {
  const credentials = agent.credentialEnv ?? [];
  if (credentials.length > 0 && !credentials.some((name) => env[name])) return false;
  return findExecutable(agent.command, env.PATH ?? '') !== null;
}

/** The agent process environment: the base variables plus the ones its definition names. */
export function agentEnvironment(agent: AcpAgentDefinition, env: NodeJS.ProcessEnv = process.env) {
  const names = new Set<string>([...BASE_ENV, ...(agent.env ?? []), ...(agent.credentialEnv ?? [])]);
  const result: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined) result[name] = value;
  }
  return result;
}
