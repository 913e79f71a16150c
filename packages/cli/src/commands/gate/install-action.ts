import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { addHookGroups, type HookGroupToAdd, removeHookCommands } from '@arbiter/tool-gate/host-settings';
import { invocationIo } from '../../invocation-io.js';
import { UsageError } from '../usage-error.js';
import { probeHookCommand, resolvedCliCommand, shellQuote } from './cli-launcher.js';
import { parseTeamServerUrl } from './team-report-options.js';

export interface GateInstallOptions {
  readonly project?: boolean;
  readonly user?: boolean;
  readonly settings?: string;
  readonly command?: string;
  /** A team server: the hook reports to it, and the host's after-tool event runs the hook too. */
  readonly server?: string;
}

/**
 * Where and how each host reads its hooks, all in Claude Code's JSON shape. Claude Code:
 * `PreToolUse` in `.claude/settings.json` (project) or `~/.claude/settings.json`, timeout in
 * seconds, matcher `*`. Gemini CLI: `BeforeTool` in `.gemini/settings.json` or
 * `~/.gemini/settings.json`, timeout in milliseconds, matcher a regular expression over tool names.
 * Codex: `PreToolUse` in `.codex/hooks.json` or `~/.codex/hooks.json`, timeout in seconds, no
 * matcher (every tool). The probe is a harmless call (reading a file, listing one) in each host's
 * own JSON.
 */
interface HookHost {
  readonly directory: string;
  readonly file: string;
  readonly event: string;
  /** The event after a tool ran, registered for a hook that reports to a team server. */
  readonly afterEvent: string;
  readonly group: (command: string) => HookGroupToAdd;
  readonly probe: (cwd: string) => string;
  /** A command earlier versions wrote, also removed by an uninstall without `--command`. */
  readonly formerCommand?: string;
}

const HOOK_HOSTS: Readonly<Record<string, HookHost>> = {
  'claude-code': {
    directory: '.claude',
    file: 'settings.json',
    event: 'PreToolUse',
    afterEvent: 'PostToolUse',
    group: (command) => ({ matcher: '*', hooks: [{ type: 'command', command, timeout: 30 }] }),
    probe: (cwd) =>
      JSON.stringify({
        session_id: 'arbiter-gate-install-check',
        hook_event_name: 'PreToolUse',
        tool_name: 'Read',
        tool_input: { file_path: join(cwd, 'README.md') },
        cwd,
      }),
    // Versions before 0.1.1 wrote the bare command, resolved by the host's PATH.
    formerCommand: 'arbiter gate hook claude-code',
  },
  gemini: {
    directory: '.gemini',
    file: 'settings.json',
    event: 'BeforeTool',
    afterEvent: 'AfterTool',
    group: (command) => ({
      matcher: '.*',
      hooks: [{ type: 'command', command, timeout: 30_000, name: 'arbiter-gate' }],
    }),
    probe: (cwd) =>
      JSON.stringify({
        session_id: 'arbiter-gate-install-check',
        cwd,
        hook_event_name: 'BeforeTool',
        timestamp: new Date(0).toISOString(),
        tool_name: 'read_file',
        tool_input: { file_path: join(cwd, 'README.md') },
      }),
  },
  codex: {
    directory: '.codex',
    file: 'hooks.json',
    event: 'PreToolUse',
    afterEvent: 'PostToolUse',
    group: (command) => ({ hooks: [{ type: 'command', command, timeout: 30 }] }),
    probe: (cwd) =>
      JSON.stringify({
        session_id: 'arbiter-gate-install-check',
        cwd,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
      }),
  },
};

const HOSTS = Object.keys(HOOK_HOSTS);

/**
 * `arbiter gate install|uninstall <host>`: adds or removes the gate's hook (claude-code, gemini, codex). The command
 * written names node and this CLI by absolute path, since the host's `PATH` may hold no `arbiter`,
 * and it is run once before it is written: a hook that cannot start is treated by hosts as "no
 * objection", so a broken one would silently turn the gate off.
 */
export async function runGateInstall(
  action: 'install' | 'uninstall',
  host: string,
  options: GateInstallOptions,
): Promise<number | undefined> {
  if (!HOSTS.includes(host))
    throw new UsageError(
      `there is no hook adapter for ${JSON.stringify(host)}; \`arbiter gate hook\` speaks ${HOSTS.join(', ')} (see docs/tool-gate.md)`,
    );
  if (options.project === true && options.user === true)
    throw new UsageError('choose one of --project and --user');
  const server = options.server === undefined ? undefined : parseTeamServerUrl(options.server);
  const target = HOOK_HOSTS[host] as HookHost;
  const settingsPath =
    options.settings !== undefined
      ? resolve(options.settings)
      : options.user === true
        ? join(homedir(), target.directory, target.file)
        : resolve(target.directory, target.file);
  // The project directory the host runs the hook in: the settings file's `.<host>/..`.
  const projectDir = options.user === true ? process.cwd() : dirname(dirname(settingsPath));
  const command = hookCommand(host, options, server);
  if (server !== undefined)
    return installReporting(action, settingsPath, command, target, () => target.probe(projectDir));
  if (action === 'uninstall') {
    let result = await removeHookCommands(settingsPath, [target.event], command);
    if (!result.changed && options.command === undefined && target.formerCommand !== undefined)
      result = await removeHookCommands(settingsPath, [target.event], target.formerCommand);
    invocationIo().writeStdout(
      result.changed
        ? `removed the hook from ${result.settingsPath}${result.backupPath === null ? '' : ` (backup: ${result.backupPath})`}\n`
        : `${result.settingsPath} has no arbiter hook; nothing changed\n`,
    );
    return undefined;
  }
  if (!(await probed(command, target.probe(projectDir)))) return 1;
  const result = await addHookGroups(settingsPath, [{ event: target.event, group: target.group(command) }]);
  const message = result.changed
    ? `${command}: installed in ${result.settingsPath}${result.backupPath === null ? '' : ` (backup: ${result.backupPath})`}`
    : `${command}: ${result.settingsPath} already has the hook; nothing changed`;
  invocationIo().writeStdout(
    `${message}\nchecked: the hook command ran once and answered as a hook should\n`,
  );
  return undefined;
}

/** Runs the command once as the host would; says why and returns false when it failed. */
async function probed(command: string, input: string): Promise<boolean> {
  const probe = await probeHookCommand(command, input, process.cwd());
  if (probe.ok) return true;
  invocationIo().writeStderr(
    `arbiter gate install: refusing to install \`${command}\`: a trial run failed: ${probe.problem}\n` +
      'A hook that cannot run lets every tool call through, so nothing was written. ' +
      'Install the CLI (npm install -g, see the README) or pass a working --command.\n',
  );
  return false;
}

/**
 * The hook command: `--command` as given, or this node and this CLI by absolute path; with a
 * team server, followed by `--server URL`. Never the key: a settings file is often committed.
 */
function hookCommand(host: string, options: GateInstallOptions, server: string | undefined): string {
  if (options.command === undefined)
    return resolvedCliCommand(['gate', 'hook', host, ...(server === undefined ? [] : ['--server', server])]);
  return server === undefined ? options.command : `${options.command} --server ${shellQuote(server)}`;
}

/**
 * A reporting install: the same command under the host's before-tool event (it judges) and its
 * after-tool event (it records that the call ran), checked by one trial run, in one write.
 */
async function installReporting(
  action: 'install' | 'uninstall',
  settingsPath: string,
  command: string,
  events: Pick<HookHost, 'event' | 'afterEvent' | 'group'>,
  probe: () => string,
): Promise<number | undefined> {
  const both = [events.event, events.afterEvent];
  if (action === 'uninstall') {
    const result = await removeHookCommands(settingsPath, both, command);
    invocationIo().writeStdout(
      result.changed
        ? `removed the hooks from ${result.settingsPath}${result.backupPath === null ? '' : ` (backup: ${result.backupPath})`}\n`
        : `${result.settingsPath} has no arbiter hook; nothing changed\n`,
    );
    return undefined;
  }
  if (!(await probed(command, probe()))) return 1;
  const result = await addHookGroups(
    settingsPath,
    both.map((event) => ({ event, group: events.group(command) })),
  );
  const message = result.changed
    ? `${command}: installed for ${both.join(' and ')} in ${result.settingsPath}${result.backupPath === null ? '' : ` (backup: ${result.backupPath})`}`
    : `${command}: ${result.settingsPath} already has the hooks; nothing changed`;
  invocationIo().writeStdout(
    `${message}\nchecked: the hook command ran once and answered as a hook should\n` +
      'the hook reads the key from ARBITER_API_KEY when it runs; set it in the environment the host starts from\n',
  );
  return undefined;
}
