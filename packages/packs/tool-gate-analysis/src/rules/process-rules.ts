import { RISK } from '../risk-scale.js';
import type { CommandRule } from '../shell-command.js';
import { OPTION_SPECS } from '../vocabulary/program-options.js';
import { parseArguments } from './option-parse.js';

/** Signals, power, schedulers: actions on the machine rather than on files. */
const kill: CommandRule = (scope) => {
  // `kill -9 PID`, `kill -s KILL PID`, `kill -n 9 PID`: a signal is an option or its value, not a
  // target. `-1` is every process the caller may signal, whether spelled as a target or not.
  const parsed = parseArguments(scope.command.args, OPTION_SPECS.kill, {
    clusters: false,
    negativeNumbers: 'option',
  });
  if (
    parsed.options.some((option) => option.name === '-l' || option.name === '-L' || option.name === '--list')
  )
    return;
  const targets = [
    ...parsed.positionals,
    ...parsed.options.filter((option) => option.name === '-1').map(() => '-1'),
  ];
  if (targets.some((target) => target === '-1' || target === '1' || target === '0')) {
    scope.add({ code: 'proc.kill-all', destructive: RISK.certain, onTask: 0.02 });
    return;
  }
  if (targets.some((target) => target.startsWith('%'))) return;
  scope.add({ code: 'proc.kill', destructive: RISK.askLow, onTask: 0.7 });
};

const killByName: CommandRule = (scope) => {
  const { program } = scope.command;
  // Signals are single-dash words (`-HUP`, `-9`); a user's or a group's name is an option's value.
  const parsed = parseArguments(
    scope.command.args,
    program === 'killall' ? OPTION_SPECS.killall : OPTION_SPECS.pkill,
    {
      clusters: false,
      negativeNumbers: 'option',
    },
  );
  const names = parsed.positionals;
  const everyone =
    parsed.options.some((option) => /^(-u|--euid|--user)$/.test(option.name)) ||
    names.some((name) =>
      /^(init|systemd|sshd|launchd|kernel_task|Xorg|loginwindow|Finder|explorer)$/.test(name),
    );
  scope.add({
    code: `proc.${program}:${names[0] ?? ''}`,
    destructive: everyone ? RISK.denyHigh : RISK.ask,
    onTask: 0.5,
  });
};

const power: CommandRule = (scope) => {
  if (scope.command.args.some((arg) => arg === '--help' || arg === '-c' || arg === '--version')) return;
  scope.add({ code: `proc.power:${scope.command.program}`, destructive: RISK.denyHigh, onTask: 0.02 });
};

const crontab: CommandRule = (scope) => {
  const args = scope.command.args;
  if (args.includes('-l')) return;
  if (args.includes('-r')) {
    scope.add({ code: 'proc.crontab.remove', destructive: RISK.denyHigh, onTask: 0.05 });
    return;
  }
  scope.add({
    code: 'proc.crontab.install.persistence',
    deny: RISK.denyHigh,
    destructive: RISK.askLow,
    onTask: 0.05,
  });
};

export const PROCESS_RULES: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
  ['kill', kill],
  ['killall', killByName],
  ['pkill', killByName],
  ['shutdown', power],
  ['reboot', power],
  ['halt', power],
  ['poweroff', power],
  [
    'init',
    (scope) => {
      if (/^[06]$/.test(scope.command.args[0] ?? '')) power(scope);
    },
  ],
  ['telinit', power],
  ['crontab', crontab],
  [
    'at',
    (scope) => scope.add({ code: 'proc.at.scheduled', deny: RISK.askHigh, onTask: 0.1, uncertain: true }),
  ],
  ['chsh', (scope) => scope.add({ code: 'proc.chsh.persistence', deny: RISK.threshold, onTask: 0.05 })],
  ['passwd', (scope) => scope.add({ code: 'proc.passwd', destructive: RISK.ask, onTask: 0.05 })],
  ['useradd', (scope) => scope.add({ code: 'proc.useradd', deny: RISK.threshold, onTask: 0.05 })],
  ['userdel', (scope) => scope.add({ code: 'proc.userdel', destructive: RISK.denyHigh, onTask: 0.05 })],
  ['usermod', (scope) => scope.add({ code: 'proc.usermod', destructive: RISK.ask, onTask: 0.05 })],
  ['visudo', (scope) => scope.add({ code: 'proc.visudo', deny: RISK.threshold, onTask: 0.05 })],
  ['swapoff', power],
  ['umount', (scope) => scope.add({ code: 'proc.umount', destructive: RISK.ask, onTask: 0.3 })],
  [
    'mount',
    (scope) => {
      if (scope.command.args.length > 0)
        scope.add({ code: 'proc.mount', destructive: RISK.askLow, onTask: 0.3 });
    },
  ],
  [
    'history',
    (scope) => {
      if (scope.command.args.includes('-c'))
        scope.add({ code: 'proc.history-clear', destructive: RISK.ask, deny: RISK.ask, onTask: 0.05 });
    },
  ],
]);
