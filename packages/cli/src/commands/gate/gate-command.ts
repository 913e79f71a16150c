import { type Command, Option } from 'commander';
import type { InvocationRunner } from '../../program-settings.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/**
 * `arbiter gate …`: judge tool calls of AI agents. Registration only imports commander types;
 * each action loads its implementation lazily, because hosts run `gate hook` on every tool call.
 */
export function registerGateCommand(program: Command, runInvocation: InvocationRunner): void {
  const gate = program
    .command('gate')
    .description(
      'Judge one tool call of an AI agent: a state as JSON on stdin, the verdict record as JSON on stdout.',
    )
    .option('--state <file>', 'read the state from a file instead of stdin')
    .option('--jsonl', "one state per line in, one verdict per line out (in order, carrying each line's id)");
  addGateOptions(gate).action(async (options) => {
    const { runGateCheck } = await import('./check-action.js');
    await runGateCheck(options);
  });

  addGateOptions(
    gate
      .command('hook')
      .description(
        "Run as a host hook: the host's hook JSON on stdin, its decision JSON on stdout (nothing when the host's rules should apply).",
      )
      .argument('<host>', 'claude-code | gemini | codex')
      .option(
        '--grant <rule>',
        'a tool or rule the agent is granted (repeatable; default: the tool being called)',
        collect,
      )
      .option(
        '--task <text>',
        'the task the agent works on (default: $ARBITER_GATE_TASK or a generic coding task)',
      )
      .option(
        '--server <url>',
        'a team server: apply its cached policy and report every verdict and after-tool event to it in the background (key from ARBITER_API_KEY, queue under $ARBITER_HOME/gate-reports)',
      ),
  ).action(async (host: string, _options, command: Command) => {
    // Options shared with `gate` are parsed by whichever command sees them first; merge both.
    const options = command.optsWithGlobals();
    const { runGateHook } = await import('./hook-action.js');
    await runGateHook(host, {
      ...options,
      task: options.task ?? (process.env.ARBITER_GATE_TASK || undefined),
    });
  });

  gate
    .command('daemon')
    .description(
      'Serve `gate hook` calls from one warm process over a Unix socket (started by `gate hook` itself; set ARBITER_GATE_DAEMON=off to keep every hook in its own process).',
    )
    .requiredOption('--socket <path>', 'the Unix socket to listen on')
    .option('--pid-file <path>', 'write the daemon process id here while it listens')
    .option('--idle-timeout <ms>', 'exit after this many milliseconds without a call', '600000')
    .action(async (options: { socket: string; pidFile?: string; idleTimeout: string }) => {
      const idleTimeoutMs = Number(options.idleTimeout);
      if (!Number.isInteger(idleTimeoutMs) || idleTimeoutMs < 1 || idleTimeoutMs > 86_400_000) {
        throw new Error(
          `--idle-timeout must be a whole number of milliseconds between 1 and 86400000, got ${JSON.stringify(options.idleTimeout)}`,
        );
      }
      const { runGateDaemon } = await import('./daemon-action.js');
      await runGateDaemon({
        runInvocation,
        socket: options.socket,
        idleTimeoutMs,
        ...(options.pidFile === undefined ? {} : { pidFile: options.pidFile }),
      });
    });

  gate
    .command('explain')
    .description(
      'Show how the gate reads a shell command: segments, findings, the six answers and the rule that fired.',
    )
    .argument('<command>', 'the shell command to explain')
    .option('--tool <name>', 'the shell tool name', 'Bash')
    .option('--task <text>', 'the task statement')
    .option('--json', 'print the trace as JSON')
    .action(async (command: string, options) => {
      const { runGateExplain } = await import('./explain-action.js');
      await runGateExplain(command, options);
    });

  for (const action of ['install', 'uninstall'] as const) {
    gate
      .command(action)
      .description(
        action === 'install'
          ? 'Add the gate as a hook to the host’s settings (Claude Code PreToolUse, Gemini CLI BeforeTool, Codex PreToolUse), after one trial run of the command (backup first; running it twice changes nothing).'
          : 'Remove the hook that `gate install` added.',
      )
      .argument('<host>', 'claude-code, gemini or codex')
      .option(
        '--project',
        'the project file (default): ./.claude/settings.json, ./.gemini/settings.json or ./.codex/hooks.json',
      )
      .option(
        '--user',
        'the user file: ~/.claude/settings.json, ~/.gemini/settings.json or ~/.codex/hooks.json',
      )
      .option('--settings <file>', 'another settings file')
      .option(
        '--command <command>',
        'the hook command (default: this node and this CLI by absolute path, then gate hook <host>)',
      )
      .option(
        '--server <url>',
        "report to a team server: the hook runs with --server URL, and the host's after-tool event (PostToolUse, AfterTool) is registered too; the key is read from ARBITER_API_KEY when the hook runs, never written",
      )
      .action(async (host: string, options) => {
        const [{ runGateInstall }, { runReportingUsageErrors }] = await Promise.all([
          import('./install-action.js'),
          import('../usage-error.js'),
        ]);
        await runReportingUsageErrors(`gate ${action}`, () => runGateInstall(action, host, options));
      });
  }

  const report = gate
    .command('report')
    .description(
      "The team report queue of hooks installed with --server (docs/tool-gate.md, 'The gate for a team').",
    );
  report
    .command('flush')
    .description(
      'Send the queued verdict and outcome records to the team server in order, then refresh the cached team policy. Exit 0 when the queue is empty afterwards, 1 when the server could not be reached or refused (the records stay queued).',
    )
    .requiredOption('--server <url>', 'the team server (key from ARBITER_API_KEY)')
    .option('--json', 'print the outcome as JSON')
    .addOption(
      // How a hook starts it: it stays a while and sends what later hooks queue.
      new Option('--background', 'stay up to 20 s after the queue empties and send new records').hideHelp(),
    )
    .action(async (options: { server: string; json?: boolean; background?: boolean }) => {
      const [{ runGateReportFlush }, { runReportingUsageErrors }] = await Promise.all([
        import('./report-flush-action.js'),
        import('../usage-error.js'),
      ]);
      await runReportingUsageErrors('gate report flush', () => runGateReportFlush(options));
    });
  report
    .command('status')
    .description(
      "Print the queue's length, the records dropped, the last flush error and the cached team policy's hash.",
    )
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }) => {
      const [{ runGateReportStatus }, { runReportingUsageErrors }] = await Promise.all([
        import('./report-status-action.js'),
        import('../usage-error.js'),
      ]);
      await runReportingUsageErrors('gate report status', () => runGateReportStatus(options));
    });

  gate
    .command('log')
    .description(
      'List the hash-chained audit log of verdicts, or verify it (--verify exits 1 on tampering, 2 when the log is missing).',
    )
    .option('--file <file>', 'the audit log (default .arbiter/gate-audit.jsonl)')
    .option('--verify', 'check the hash chain: edits, deletions and reordering are detected')
    .option('--json', 'machine-readable output')
    .action(async (options) => {
      const [{ runGateLog }, { runReportingUsageErrors }] = await Promise.all([
        import('./log-action.js'),
        import('../usage-error.js'),
      ]);
      await runReportingUsageErrors('gate log', async () => {
        await runGateLog(options);
        return undefined;
      });
    });
}

function addGateOptions(command: Command): Command {
  return command
    .option(
      '--policy <file>',
      'static policy: {"allow","ask","deny"} rule lists or a settings file with "permissions"',
    )
    .option(
      '--claude-settings <file>',
      'also read permissions.allow|ask|deny from a Claude Code settings file',
    )
    .option('--permissions <file>', 'remembered approvals and denials (JSON file)')
    .option('--shadow', 'decide and record, but let the existing policy act')
    .option(
      '--url <url>',
      'ask a running Arbiter server (API key from ARBITER_API_KEY) instead of the built-in engine',
    )
    .option('--model <pin>', 'model pin to ask the server for')
    .option(
      '--audit <file>',
      'append every verdict to this hash-chained audit log (default: $ARBITER_GATE_AUDIT)',
      process.env.ARBITER_GATE_AUDIT || undefined,
    )
    .option('--timeout <ms>', 'time budget of one decision in milliseconds (default 5000)');
}
