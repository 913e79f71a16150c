import { type HostHook, readToolHookInput } from './host-hook.js';

const DECISIONS = { ALLOW: 'allow', DENY: 'deny', ASK: 'ask' } as const;

/**
 * Gemini CLI's BeforeTool hook: `{decision, reason}` on stdout with exit code 0. Printing
 * nothing leaves Gemini CLI's own confirmation policy in charge.
 */
export const geminiHook: HostHook = {
  host: 'gemini',
  read: (input, defaults) => readToolHookInput(input, defaults, ['BeforeTool'], ['AfterTool']),
  render(verdict, reason) {
    if (verdict === null) return null;
    return JSON.stringify({ decision: DECISIONS[verdict], reason: `arbiter: ${reason}` });
  },
};
