import { createStubTransport, DecisionClient } from '@arbiter/decision';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolGate } from '../tool-gate.js';
import { HOST_HOOKS } from './host-hooks.js';
import { judgeHostHook, runHostHook } from './run-host-hook.js';

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

describe('after-tool events', () => {
  const after = {
    'claude-code': { hook_event_name: 'PostToolUse', tool_response: { stdout: 'built' } },
    codex: { hook_event_name: 'PostToolUse', tool_response: 'built' },
    gemini: { hook_event_name: 'AfterTool', tool_response: { llmContent: 'built' } },
  } as const;
  const before = { 'claude-code': 'PreToolUse', codex: 'PreToolUse', gemini: 'BeforeTool' } as const;

  for (const host of ['claude-code', 'codex', 'gemini'] as const) {
    it(`${host}: reads the after-tool event as a call that ran, prints nothing and judges nothing`, async () => {
      let judged = 0;
      const gate = createToolGate({
        client: {
          async decide() {
            judged++;
            return { skipped: true, reason: 'timeout', message: 'x' };
          },
        },
      });
      const call = { tool_name: 'Bash', tool_input: { command: 'npm run build' }, cwd: '/work/p' };
      const result = await judgeHostHook({
        hook: HOST_HOOKS[host],
        input: JSON.stringify({ ...call, ...after[host], session_id: 's-1' }),
        gate,
      });
      expect(result).toEqual({
        output: null,
        reading: { kind: 'tool-ran', tool: 'Bash', arguments: { command: 'npm run build' }, session: 's-1' },
        verdict: null,
      });
      expect(judged).toBe(0);
      // The before-tool event of the same call carries the same tool and arguments, and its session.
      const judgedBefore = await judgeHostHook({
        hook: HOST_HOOKS[host],
        input: JSON.stringify({ ...call, hook_event_name: before[host], session_id: 's-1' }),
        gate,
      });
      expect(judgedBefore.reading).toMatchObject({
        kind: 'tool-call',
        session: 's-1',
        state: { tool: 'Bash', arguments: { command: 'npm run build' } },
      });
      expect(judgedBefore.verdict).not.toBeNull();
    });
  }

  it("does not take another host's after-tool event for its own", async () => {
    const input = JSON.stringify({ hook_event_name: 'AfterTool', tool_name: 'Bash', tool_input: {} });
    const result = await judgeHostHook({ hook: HOST_HOOKS['claude-code'], input, gate: stubGate() });
    expect(result.reading).toEqual({ kind: 'not-a-tool-call' });
  });
});

describe('team allow rules in the gate', () => {
  /** A client whose analysis asks (rule 5) about every call, as it does about an unknown program. */
  const asking = {
    async decide() {
      const noul = (value: number) => ({ type: 'noul' as const, noul: value });
      return {
        skipped: false as const,
        model: 'fake',
        answers: {
          in_grant: noul(0.9),
          args_plausible: noul(0.9),
          on_task: noul(0.9),
          destructive: noul(0.1),
          exfil_risk: noul(0.1),
          disposition: {
            type: 'choice' as const,
            choice: 'ask',
            confidence: 0.7,
            probabilities: { allow: 0.2, ask: 0.7, deny: 0.1 },
          },
        },
      };
    },
  };
  const state = (command: string) => ({
    tool: 'Bash',
    arguments: { command },
    grant: ['Bash'],
    task: 't',
    cwd: '/work/p',
  });

  it('a matching rule turns the ASK into ALLOW; a non-matching call still asks', async () => {
    const gate = createToolGate({ client: asking, teamAllow: ['Bash(terraform plan:*)'] });
    expect(await gate.check(state('terraform plan -out x'))).toMatchObject({
      verdict: 'ALLOW',
      effective: 'ALLOW',
      decided_by: 'team',
    });
    expect(await gate.check(state('terraform apply'))).toMatchObject({ verdict: 'ASK', decided_by: 'gate' });
    // Every simple command of the line must be covered, as for any allow rule.
    expect(await gate.check(state('terraform plan && terraform apply'))).toMatchObject({ verdict: 'ASK' });
  });

  it("never overrides the static policy's ask or deny rules", async () => {
    const gate = createToolGate({
      client: asking,
      teamAllow: ['Bash(terraform:*)'],
      policy: { ask: ['Bash(terraform plan:*)'], deny: ['Bash(terraform destroy:*)'] },
    });
    expect(await gate.check(state('terraform plan'))).toMatchObject({ effective: 'ASK' });
    expect(await gate.check(state('terraform destroy'))).toMatchObject({ effective: 'DENY', rule: 1 });
    expect(await gate.check(state('terraform fmt'))).toMatchObject({
      effective: 'ALLOW',
      decided_by: 'team',
    });
  });
});
