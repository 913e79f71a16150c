import type { ToolGateStateInput } from '../tool-gate-state.js';
import type { ToolGateVerdict } from '../tool-gate-verdict.js';

export type HostName = 'claude-code' | 'gemini' | 'codex';

/** What the hook knows about the session that the host's hook JSON does not carry. */
export interface HookSessionDefaults {
  /** Tools or rules granted to the agent; default: the tool the host is about to run. */
  readonly grant?: readonly string[];
  /** The task statement; default a generic software-project task. */
  readonly task?: string;
}

/** The result of reading a host's hook input. */
export type HookInputReading =
  | {
      readonly kind: 'tool-call';
      readonly state: ToolGateStateInput;
      /** The host's session id (`session_id`); null when it sends none. */
      readonly session: string | null;
    }
  /**
   * The host's after-tool event (Claude Code and Codex `PostToolUse`, Gemini CLI `AfterTool`): the
   * call ran. The gate judges nothing and prints nothing; a hook reporting to a team server records
   * the outcome against the call's earlier verdict (issue 32).
   */
  | {
      readonly kind: 'tool-ran';
      readonly tool: string;
      readonly arguments: Record<string, unknown>;
      readonly session: string | null;
    }
  /** An event the gate has no business with (SessionStart, Notification, …): say nothing. */
  | { readonly kind: 'not-a-tool-call' }
  | { readonly kind: 'malformed'; readonly problem: string };

/**
 * A host's hook protocol: its JSON in, its decision JSON out. `render` returns null when the
 * host's own rules should apply (gate skipped, no opinion, shadow mode): the hook prints nothing.
 */
export interface HostHook {
  readonly host: HostName;
  read(input: string, defaults: HookSessionDefaults): HookInputReading;
  render(verdict: ToolGateVerdict['effective'], reason: string): string | null;
}

export const DEFAULT_HOOK_TASK =
  'Work on the software project in the current directory: keep the build green and make the changes the user asks for.';

/**
 * Parses the common shape of the hook families: `tool_name`, `tool_input`, `cwd`, `session_id`,
 * `hook_event_name`. `toolEvents` are the before-tool events the gate judges, `afterEvents` the
 * after-tool events that say a call ran.
 */
export function readToolHookInput(
  input: string,
  defaults: HookSessionDefaults,
  toolEvents: readonly string[],
  afterEvents: readonly string[] = [],
): HookInputReading {
  let json: unknown;
  try {
    json = JSON.parse(input);
  } catch {
    return { kind: 'malformed', problem: 'hook input is not JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { kind: 'malformed', problem: 'hook input is not a JSON object' };
  }
  const event = (json as Record<string, unknown>).hook_event_name;
  const after = typeof event === 'string' && afterEvents.includes(event);
  if (typeof event === 'string' && !after && !toolEvents.includes(event)) return { kind: 'not-a-tool-call' };
  const {
    tool_name: tool,
    tool_input: toolInput,
    cwd,
    session_id: sessionId,
  } = json as Record<string, unknown>;
  const session = typeof sessionId === 'string' && sessionId !== '' ? sessionId : null;
  if (typeof tool !== 'string' || tool === '')
    return { kind: 'malformed', problem: 'hook input has no tool_name' };
  if (typeof toolInput !== 'object' || toolInput === null || Array.isArray(toolInput)) {
    return { kind: 'malformed', problem: 'hook input has no tool_input object' };
  }
  if (after) return { kind: 'tool-ran', tool, arguments: toolInput as Record<string, unknown>, session };
  return {
    kind: 'tool-call',
    session,
    state: {
      tool,
      arguments: toolInput as Record<string, unknown>,
      grant: [...(defaults.grant ?? [tool])],
      task: defaults.task ?? DEFAULT_HOOK_TASK,
      ...(typeof cwd === 'string' && cwd !== '' ? { cwd } : {}),
    },
  };
}
