import { createStubTransport, DecisionClient } from '@arbiter/decision';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolGate } from '../tool-gate.js';
import { HOST_HOOKS } from './host-hooks.js';
import { runHostHook } from './run-host-hook.js';

const stubGate = (policy = {}) =>
  createToolGate({ client: new DecisionClient({ transport: createStubTransport() }), policy });

const claudeInput = (tool_input: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input, cwd: '/work/p', ...extra });

describe('runHostHook', () => {
  it('renders a Claude Code deny from the policy', async () => {
    const output = await runHostHook({
      hook: HOST_HOOKS['claude-code'],
      input: claudeInput({ command: 'rm -rf build' }),
      gate: stubGate({ deny: ['Bash(rm:*)'] }),
    });
    expect(JSON.parse(output!)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'arbiter: denied by the static policy (Bash(rm:*)) [rule 1]',
      },
    });
  });

  it('prints nothing when the gate has no opinion and no policy applies', async () => {
    const output = await runHostHook({
      hook: HOST_HOOKS['claude-code'],
      input: claudeInput({ command: 'ls' }),
      gate: stubGate(),
    });
    expect(output).toBeNull();
  });

  it('grants the called tool by default and takes session defaults', async () => {
    const seen: unknown[] = [];
    const gate = createToolGate({
      client: {
        async decide(options) {
          seen.push(options.state);
          return { skipped: true, reason: 'timeout', message: 'x' };
        },
      },
    });
    await runHostHook({
      hook: HOST_HOOKS.gemini,
      input: JSON.stringify({
        hook_event_name: 'BeforeTool',
        tool_name: 'read_file',
        tool_input: { file_path: 'a' },
      }),
      gate,
    });
    await runHostHook({
      hook: HOST_HOOKS.codex,
      input: claudeInput({ command: ['ls'] }),
      gate,
      defaults: { grant: ['Bash(ls)'], task: 'list files' },
    });
    expect(seen).toEqual([
      expect.objectContaining({
        tool: 'read_file',
        grant: ['read_file'],
        task: expect.stringMatching(/software project/),
      }),
      expect.objectContaining({ tool: 'Bash', grant: ['Bash(ls)'], task: 'list files', cwd: '/work/p' }),
    ]);
  });

  it('answers ask when the gate throws', async () => {
    const gate = createToolGate({
      client: {
        decide: () => Promise.reject(new Error('engine exploded')),
      },
    });
    const output = await runHostHook({
      hook: HOST_HOOKS.gemini,
      input: JSON.stringify({ tool_name: 'x', tool_input: {} }),
      gate,
    });
    expect(JSON.parse(output!)).toEqual({
      decision: 'ask',
      reason: 'arbiter: could not judge the call: engine exploded',
    });
  });

  it('never throws and always prints well-formed JSON or nothing, whatever the input (fuzz)', async () => {
    const gate = stubGate({ deny: ['Bash(rm:*)'], allow: ['Bash(ls:*)'] });
    const inputs = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json().map((json) => json),
      fc
        .anything()
        .map(
          (value) =>
            JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: value }) ?? '',
        ),
      fc.record({ command: fc.string({ maxLength: 300 }) }).map((input) => claudeInput(input)),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    await fc.assert(
      fc.asyncProperty(inputs, fc.constantFrom(...Object.values(HOST_HOOKS)), async (input, hook) => {
        const output = await runHostHook({ hook, input, gate });
        if (output !== null) expect(() => JSON.parse(output)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('answers deeply nested input', async () => {
    const nested = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const output = await runHostHook({ hook: HOST_HOOKS['claude-code'], input: nested, gate: stubGate() });
    expect(JSON.parse(output!).hookSpecificOutput.permissionDecision).toBe('ask');
  });
});
