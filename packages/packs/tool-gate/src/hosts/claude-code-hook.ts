import { type HostHook, readToolHookInput } from './host-hook.js';

const DECISIONS = { ALLOW: 'allow', DENY: 'deny', ASK: 'ask' } as const;

/**
 * Claude Code's PreToolUse hook: `hookSpecificOutput.permissionDecision` allow, deny or ask.
 * Printing nothing leaves Claude Code's own permission rules in charge.
 */
export const claudeCodeHook: HostHook = {
  host: 'claude-code',
  read: (input, defaults) => readToolHookInput(input, defaults, ['PreToolUse'], ['PostToolUse']),
  render(verdict, reason) {
    if (verdict === null) return null;
    return JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: DECISIONS[verdict],
        permissionDecisionReason: `arbiter: ${reason}`,
      },
    });
  },
};

/**
 * Codex's PreToolUse hook speaks the same JSON family as Claude Code (`tool_name` is `Bash`
 * for shell calls; `tool_input.command` may be an argv array, which the gate reads too).
 */
export const codexHook: HostHook = {
  ...claudeCodeHook,
  host: 'codex',
};
