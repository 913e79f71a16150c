import { claudeCodeHook, codexHook } from './claude-code-hook.js';
import { geminiHook } from './gemini-hook.js';
import type { HostHook, HostName } from './host-hook.js';

/** The hook protocol of each supported host. */
export const HOST_HOOKS: Readonly<Record<HostName, HostHook>> = Object.freeze({
  'claude-code': claudeCodeHook,
  gemini: geminiHook,
  codex: codexHook,
});
