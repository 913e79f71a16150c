import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';

// These tests run the real `arbiter` CLI as a subprocess: build first with `npx tsc -b`.
// Several spawn more than one process, so they get more time than the default.
vi.setConfig({ testTimeout: 120_000 });
const launcher = resolve(import.meta.dirname, '../../../bin/arbiter.js');
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'arbiter-gate-cli-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** A directory of one test's own, removed when the test ends. */
async function temporary(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function arbiter(args: string[], input = '', cwd = directory) {
  const result = spawnSync(process.execPath, [launcher, ...args], {
    input,
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ARBITER_GATE_AUDIT: '', ARBITER_GATE_TASK: '' },
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const claudeInput = (command: string) =>
  JSON.stringify({
    session_id: 's1',
    transcript_path: '/tmp/t.jsonl',
    cwd: directory,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'run it' },
    tool_use_id: 'toolu_1',
  });

describe('arbiter gate hook claude-code', () => {
  it('denies a destructive command in the host format', () => {
    const { status, stdout } = arbiter(['gate', 'hook', 'claude-code'], claudeInput('rm -rf ~'));
    expect(status).toBe(0);
    const output = JSON.parse(stdout);
    expect(output.hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
    });
    expect(output.hookSpecificOutput.permissionDecisionReason).toMatch(/^arbiter: .*rule [123]/);
  });

  it('allows routine inspection', () => {
    const { stdout } = arbiter(['gate', 'hook', 'claude-code'], claudeInput('git status'));
    expect(JSON.parse(stdout).hookSpecificOutput.permissionDecision).toBe('allow');
  });

  it('answers a well-formed ask for malformed input, never a crash', () => {
    // More malformed shapes are covered in process by the pack's fuzz test; these prove the real process.
    for (const input of ['not json', '\u0000\u0001binary']) {
      const { status, stdout } = arbiter(['gate', 'hook', 'claude-code'], input);
      expect(status, input).toBe(0);
      expect(JSON.parse(stdout).hookSpecificOutput.permissionDecision, input).toBe('ask');
    }
  });

  it('prints nothing for events that are not tool calls', () => {
    const { status, stdout } = arbiter(
      ['gate', 'hook', 'claude-code'],
      JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: {} }),
    );
    expect(status).toBe(0);
    expect(stdout).toBe('');
  });

  it('prints nothing in shadow mode without a policy, so the host decides', () => {
    const { stdout } = arbiter(['gate', 'hook', 'claude-code', '--shadow'], claudeInput('rm -rf ~'));
    expect(stdout).toBe('');
  });

  it('applies a policy file before the service (rule 1)', async () => {
    const policy = join(directory, 'policy.json');
    await writeFile(policy, JSON.stringify({ deny: ['Bash(git status)'] }));
    const { stdout } = arbiter(
      ['gate', 'hook', 'claude-code', '--policy', policy],
      claudeInput('git status'),
    );
    expect(JSON.parse(stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    expect(JSON.parse(stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/rule 1/);
  });

  it('answers a 1 MB command', () => {
    const { status, stdout } = arbiter(
      ['gate', 'hook', 'claude-code'],
      claudeInput(`echo ${'a'.repeat(1_000_000)}`),
    );
    expect(status).toBe(0);
    expect(['allow', 'ask', 'deny']).toContain(JSON.parse(stdout).hookSpecificOutput.permissionDecision);
  });
});

describe('arbiter gate hook gemini|codex', () => {
  it('speaks the Gemini CLI BeforeTool format', () => {
    const input = JSON.stringify({
      session_id: 's',
      cwd: directory,
      hook_event_name: 'BeforeTool',
      timestamp: new Date().toISOString(),
      tool_name: 'run_shell_command',
      tool_input: { command: 'rm -rf /' },
    });
    const output = JSON.parse(arbiter(['gate', 'hook', 'gemini'], input).stdout);
    expect(output).toMatchObject({ decision: 'deny' });
    expect(output.reason).toMatch(/^arbiter: /);
    expect(JSON.parse(arbiter(['gate', 'hook', 'gemini'], '{').stdout)).toMatchObject({ decision: 'ask' });
  });

  it('reads Codex argv commands', () => {
    const input = JSON.stringify({
      session_id: 's',
      cwd: directory,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: ['bash', '-lc', 'rm -rf ~'] },
    });
    expect(
      JSON.parse(arbiter(['gate', 'hook', 'codex'], input).stdout).hookSpecificOutput.permissionDecision,
    ).toBe('deny');
  });

  it('refuses an unknown host with a specific message', () => {
    const { status, stdout, stderr } = arbiter(['gate', 'hook', 'vim'], claudeInput('ls'));
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/unknown host "vim"/);
  });
});

describe('arbiter gate', () => {
  const state = (command: string) => ({
    tool: 'Bash',
    arguments: { command },
    grant: ['Bash'],
    task: 'fix the tests',
  });

  it('turns a state on stdin into a verdict record', () => {
    const { status, stdout } = arbiter(['gate'], JSON.stringify(state('rm -rf /')));
    expect(status).toBe(0);
    const verdict = JSON.parse(stdout);
    expect(verdict).toMatchObject({ verdict: 'DENY', pack: { name: 'arbiter/tool-gate', version: '1.0.0' } });
    expect(verdict.pack.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(verdict.model).toBe('arbiter-1.0.0');
  });

  it('streams --jsonl in order with ids, reporting bad lines in place', () => {
    const lines = [
      JSON.stringify({ id: 'a', state: state('git status') }),
      'not json',
      JSON.stringify({ id: 'c', ...state('rm -rf ~') }),
    ].join('\n');
    const { status, stdout } = arbiter(['gate', '--jsonl'], lines);
    const out = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(out.map((item) => item.id)).toEqual(['a', undefined, 'c']);
    expect(out[0].verdict).toBe('ALLOW');
    expect(out[1].error).toMatch(/^line 2: /);
    expect(out[2].verdict).toBe('DENY');
    expect(status).toBe(1);
  });

  it('asks a running server with --url: the Decision API wire format, the pack reference, secrets redacted', async () => {
    const requests: {
      authorization: string | undefined;
      body: { pack?: unknown; questions?: Record<string, unknown> };
    }[] = [];
    const noul = (value: number) => ({ type: 'noul', noul: value });
    const server = createServer(async (request, response) => {
      let text = '';
      for await (const chunk of request) text += chunk;
      requests.push({ authorization: request.headers.authorization, body: JSON.parse(text) });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          model: 'remote-2.0.0',
          answers: {
            in_grant: noul(0.99),
            args_plausible: noul(0.99),
            on_task: noul(0.9),
            destructive: noul(0.01),
            exfil_risk: noul(0.05),
            disposition: {
              type: 'choice',
              choice: 'allow',
              confidence: 0.9,
              probabilities: { allow: 0.9, deny: 0.05, ask: 0.05 },
            },
          },
          usage: { input_tokens: 10, output_tokens: 6 },
        }),
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const token = `ghp_${'a1B2c3D4'.repeat(5)}`;
      // Asynchronous spawn: the server lives in this process and must keep answering.
      const child = spawn(process.execPath, [launcher, 'gate', '--url', `http://127.0.0.1:${port}`], {
        cwd: directory,
        env: { ...process.env, ARBITER_API_KEY: 'test-key-123', ARBITER_GATE_AUDIT: '' },
      });
      let stdout = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stdin.end(
        JSON.stringify(state(`curl -H "Authorization: token ${token}" https://api.github.com/user`)),
      );
      const [code] = await once(child, 'close');
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({
        verdict: 'ALLOW',
        rule: 4,
        model: 'remote-2.0.0',
        skipped: false,
      });
      expect(requests).toHaveLength(1);
      expect(requests[0]?.authorization).toBe('Bearer test-key-123');
      expect(requests[0]?.body.pack).toMatchObject({ name: 'arbiter/tool-gate', version: '1.0.0' });
      expect(Object.keys(requests[0]?.body.questions ?? {}).sort()).toEqual([
        'args_plausible',
        'destructive',
        'disposition',
        'exfil_risk',
        'in_grant',
        'on_task',
      ]);
      expect(JSON.stringify(requests[0]?.body)).not.toContain(token);
    } finally {
      server.close();
    }
  });

  it('reports an invalid state clearly', () => {
    const invalid = arbiter(['gate'], JSON.stringify({ tool: 'Bash' }));
    expect(invalid.status).toBe(1);
    expect(invalid.stderr).toMatch(/arguments/);
  });

  it('writes a verifiable audit log and detects tampering', async () => {
    const audit = join(directory, 'audit.jsonl');
    const lines = [JSON.stringify(state('git status')), JSON.stringify(state('rm -rf ~'))].join('\n');
    expect(arbiter(['gate', '--jsonl', '--audit', audit], lines).status).toBe(0);
    const verified = arbiter(['gate', 'log', '--file', audit, '--verify']);
    expect(verified.status).toBe(0);
    expect(verified.stdout).toMatch(/chain intact, 2 entries/);
    expect(arbiter(['gate', 'log', '--file', audit]).stdout).toMatch(/^1\t.*\tALLOW\t.*\n2\t.*\tDENY\t/);
    const text = await readFile(audit, 'utf8');
    await writeFile(audit, text.replace('"verdict":"DENY"', '"verdict":"ALLOW"'));
    const tampered = arbiter(['gate', 'log', '--file', audit, '--verify']);
    expect(tampered.status).toBe(1);
    expect(tampered.stdout).toMatch(/TAMPERED at line 2/);
  });

  it('explains a command: trace, answers and the rule', () => {
    const { status, stdout } = arbiter(['gate', 'explain', 'cd /tmp && bash -c "rm -rf ~"']);
    expect(status).toBe(0);
    expect(stdout).toMatch(/segments \(\d+\):/);
    expect(stdout).toMatch(/findings/);
    expect(stdout).toMatch(/destructive\s+\d\.\d\d/);
    expect(stdout).toMatch(/verdict: DENY by rule [23]/);
  });
});

describe('arbiter gate install claude-code', () => {
  it('installs idempotently with a backup and uninstalls', async () => {
    const project = await temporary('arbiter-gate-install-');
    const settings = join(project, '.claude', 'settings.json');
    const first = arbiter(['gate', 'install', 'claude-code', '--project'], '', project);
    expect(first.stdout).toMatch(/installed in/);
    const second = arbiter(['gate', 'install', 'claude-code'], '', project);
    expect(second.stdout).toMatch(/nothing changed/);
    const installed = JSON.parse(await readFile(settings, 'utf8'));
    expect(installed.hooks.PreToolUse).toHaveLength(1);
    const removed = arbiter(['gate', 'uninstall', 'claude-code'], '', project);
    expect(removed.stdout).toMatch(/removed the hook from .*backup: /);
    expect(JSON.parse(await readFile(settings, 'utf8'))).toEqual({});
  });

  it('uninstalls the bare command versions before 0.1.1 wrote, keeping other hooks', async () => {
    const project = await temporary('arbiter-gate-install-');
    const settings = join(project, '.claude', 'settings.json');
    const mine = { matcher: 'Bash', hooks: [{ type: 'command', command: 'my-guard' }] };
    const former = { matcher: '*', hooks: [{ type: 'command', command: 'arbiter gate hook claude-code' }] };
    await mkdir(join(project, '.claude'));
    await writeFile(settings, JSON.stringify({ hooks: { PreToolUse: [mine, former] } }));
    const removed = arbiter(['gate', 'uninstall', 'claude-code'], '', project);
    expect(removed.stdout).toMatch(/removed the hook from/);
    expect(JSON.parse(await readFile(settings, 'utf8'))).toEqual({ hooks: { PreToolUse: [mine] } });
  });

  it('writes a command that runs without arbiter on PATH, as the host runs it', async () => {
    const project = await temporary('arbiter-gate-install-');
    const installed = arbiter(['gate', 'install', 'claude-code'], '', project);
    expect(installed.status).toBe(0);
    expect(installed.stdout).toMatch(/checked: the hook command ran once/);
    const settings = JSON.parse(await readFile(join(project, '.claude', 'settings.json'), 'utf8'));
    const command: string = settings.hooks.PreToolUse[0].hooks[0].command;
    // Absolute paths: node itself and the CLI's launcher.
    expect(command.startsWith(`${process.execPath} /`)).toBe(true);
    expect(command.endsWith(' gate hook claude-code')).toBe(true);
    // The host's shell, another directory, and a PATH without node or arbiter.
    const run = spawnSync('/bin/sh', ['-c', command], {
      input: claudeInput('rm -rf ~'),
      cwd: tmpdir(),
      encoding: 'utf8',
      env: { PATH: '/nonexistent', HOME: project, ARBITER_GATE_DAEMON: 'off' },
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('refuses to install a command that does not run, and writes nothing', async () => {
    const project = await temporary('arbiter-gate-install-');
    const refused = arbiter(
      ['gate', 'install', 'claude-code', '--command', 'arbiter-missing gate hook claude-code'],
      '',
      project,
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /refusing to install `arbiter-missing gate hook claude-code`: a trial run failed: it exited with status 127 \(command not found\)/,
    );
    await expect(readFile(join(project, '.claude', 'settings.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('names the hosts it can hook instead of suggesting a command that does not exist', () => {
    const cursor = arbiter(['gate', 'install', 'cursor']);
    expect(cursor.status).toBe(2);
    expect(cursor.stderr).toMatch(
      /no hook adapter for "cursor"; `arbiter gate hook` speaks claude-code, gemini, codex/,
    );
    expect(cursor.stderr).not.toMatch(/gate hook cursor/);
  });
});

describe('arbiter gate install gemini and codex', () => {
  const hosts = [
    {
      host: 'gemini',
      file: ['.gemini', 'settings.json'],
      event: 'BeforeTool',
      group: { matcher: '.*', hooks: [{ type: 'command', timeout: 30_000, name: 'arbiter-gate' }] },
      /** A destructive shell call in the host's hook JSON, and the denial read from its answer. */
      call: (cwd: string) =>
        JSON.stringify({
          session_id: 's1',
          transcript_path: '/tmp/t.json',
          cwd,
          hook_event_name: 'BeforeTool',
          timestamp: '2026-11-28T00:00:00.000Z',
          tool_name: 'run_shell_command',
          tool_input: { command: 'rm -rf ~' },
        }),
      denied: (answer: { decision?: string }) => answer.decision,
    },
    {
      host: 'codex',
      file: ['.codex', 'hooks.json'],
      event: 'PreToolUse',
      group: { hooks: [{ type: 'command', timeout: 30 }] },
      call: (cwd: string) =>
        JSON.stringify({
          session_id: 's1',
          cwd,
          hook_event_name: 'PreToolUse',
          model: 'gpt-5-codex',
          tool_name: 'Bash',
          tool_input: { command: ['bash', '-lc', 'rm -rf ~'] },
        }),
      denied: (answer: { hookSpecificOutput?: { permissionDecision?: string } }) =>
        answer.hookSpecificOutput?.permissionDecision,
    },
  ] as const;

  for (const target of hosts) {
    it(`${target.host}: writes the host's hook next to what was there, runs as the host runs it, and uninstall restores the file`, async () => {
      const project = await temporary(`arbiter-gate-install-${target.host}-`);
      const settingsPath = join(project, ...target.file);
      const before = {
        general: { theme: 'x' },
        hooks: { [target.event]: [{ matcher: 'other', hooks: [{ type: 'command', command: 'true' }] }] },
      };
      await mkdir(dirname(settingsPath), { recursive: true });
      await writeFile(settingsPath, JSON.stringify(before));

      const installed = arbiter(['gate', 'install', target.host], '', project);
      expect(installed.status, installed.stderr).toBe(0);
      expect(installed.stdout).toMatch(/installed in .*backup: /);
      expect(installed.stdout).toMatch(/checked: the hook command ran once/);
      const settings = JSON.parse(await readFile(settingsPath, 'utf8'));
      expect(settings.general).toEqual(before.general);
      const groups = settings.hooks[target.event];
      expect(groups).toHaveLength(2);
      expect(groups[0]).toEqual(before.hooks[target.event]?.[0]);
      expect(groups[1]).toMatchObject(target.group);
      const command: string = groups[1].hooks[0].command;
      expect(command.startsWith(`${process.execPath} /`)).toBe(true);
      expect(command.endsWith(` gate hook ${target.host}`)).toBe(true);
      expect(arbiter(['gate', 'install', target.host], '', project).stdout).toMatch(/nothing changed/);

      // The command as the host runs it: its shell, another directory, a PATH without node.
      const run = spawnSync('/bin/sh', ['-c', command], {
        input: target.call(project),
        cwd: tmpdir(),
        encoding: 'utf8',
        env: { PATH: '/nonexistent', HOME: project, ARBITER_GATE_DAEMON: 'off' },
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(target.denied(JSON.parse(run.stdout))).toBe('deny');

      const removed = arbiter(['gate', 'uninstall', target.host], '', project);
      expect(removed.stdout).toMatch(/removed the hook from/);
      expect(JSON.parse(await readFile(settingsPath, 'utf8'))).toEqual(before);
      expect(arbiter(['gate', 'uninstall', target.host], '', project).stdout).toMatch(/no arbiter hook/);
    });

    it(`${target.host}: refuses a command that does not run, and a settings file that is not JSON, writing nothing`, async () => {
      const project = await temporary(`arbiter-gate-install-${target.host}-`);
      const settingsPath = join(project, ...target.file);
      const refused = arbiter(['gate', 'install', target.host, '--command', 'arbiter-missing'], '', project);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(
        /refusing to install `arbiter-missing`: a trial run failed: .*status 127/,
      );
      await expect(readFile(settingsPath, 'utf8')).rejects.toThrow(/ENOENT/);

      await mkdir(dirname(settingsPath), { recursive: true });
      await writeFile(settingsPath, '{ not json');
      const broken = arbiter(['gate', 'install', target.host], '', project);
      expect(broken.status).toBe(1);
      expect(broken.stderr).toMatch(/is not valid JSON/);
      expect(await readFile(settingsPath, 'utf8')).toBe('{ not json');
    });
  }
});

describe('gate inputs that must exist', () => {
  it('fails `gate log` on a missing log, with or without --verify', () => {
    const verify = arbiter(['gate', 'log', '--verify', '--file', join(directory, 'missing.jsonl')]);
    expect(verify.status).toBe(2);
    expect(verify.stdout).toBe('');
    expect(verify.stderr).toMatch(/no audit log at .*missing\.jsonl; nothing to verify/);
    expect(arbiter(['gate', 'log', '--file', join(directory, 'missing.jsonl')]).status).toBe(2);
  });

  it('fails safe on a missing --claude-settings file, as on a missing --policy file', () => {
    for (const flag of ['--claude-settings', '--policy']) {
      const hook = arbiter(['gate', 'hook', 'claude-code', flag, '/nope.json'], claudeInput('ls'));
      expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
      expect(hook.stdout).toMatch(/nope\.json/);
    }
    const gate = arbiter(
      ['gate', '--claude-settings', '/nope.json'],
      JSON.stringify({ tool: 'Bash', arguments: { command: 'ls' } }),
    );
    expect(gate.status).not.toBe(0);
    expect(gate.stderr).toMatch(/--claude-settings \/nope\.json: no such file/);
  });
});

describe('arbiter guard git-push as a real pre-push hook', () => {
  it('lets a feature branch through and refuses main, force and unknown remotes', async () => {
    const root = await temporary('arbiter-guard-cli-');
    const remote = join(root, 'remote.git');
    const repo = join(root, 'work');
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    };
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8', env });
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
    execFileSync('git', ['init', '-q', '-b', 'feature', repo]);
    git('remote', 'add', 'origin', remote);
    git('commit', '-q', '--allow-empty', '-m', 'one');
    await writeFile(
      join(repo, '.git', 'hooks', 'pre-push'),
      `#!/bin/sh\nexec '${process.execPath}' '${launcher}' guard git-push "$@"\n`,
      {
        mode: 0o755,
      },
    );
    expect(git('push', '-q', 'origin', 'feature').status).toBe(0);
    const toMain = git('push', 'origin', 'feature:main');
    expect(toMain.status).not.toBe(0);
    expect(toMain.stderr).toMatch(/arbiter guard: pushing to the protected branch main/);
    git('commit', '-q', '--amend', '--allow-empty', '-m', 'rewritten');
    const forced = git('push', '-f', 'origin', 'feature');
    expect(forced.status).not.toBe(0);
    expect(forced.stderr).toMatch(/force push/);
    const elsewhere = join(root, 'elsewhere.git');
    execFileSync('git', ['init', '-q', '--bare', elsewhere]);
    const unknown = git('push', elsewhere, 'feature:other');
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toMatch(/not a configured remote/);
  });

  it('checks a command line with --command', () => {
    const result = arbiter(['guard', 'git-push', '--command', 'git push --force origin x']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/force push/);
  });
});
