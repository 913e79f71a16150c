import { RISK } from '../risk-scale.js';
import type { CommandRule, CommandScope } from '../shell-command.js';
import { OPTION_SPECS } from '../vocabulary/program-options.js';
import { type OptionSpelling, parseArguments } from './option-parse.js';

/**
 * Programs that show a host setting and also set it: the network (`ip`, `ifconfig`, `route`),
 * the clock (`date`), the host's name (`hostname`), kernel parameters (`sysctl`). Principle: the
 * showing form is a read; the setting form changes the machine for everyone on it (a link taken
 * down cuts the session, a clock set back breaks certificates and builds), which the task must
 * name and a person must see: asked.
 */
function changes(scope: CommandScope, program: string, what: string): void {
  scope.add({ code: `system.${program}.sets:${what}`, destructive: RISK.askHigh, onTask: 0.2 });
}

/** `ip [options] OBJECT COMMAND …`: reads are `show`, `list`, `get`, `monitor` or no command. */
const IP_CHANGES =
  /^(set|add|del|delete|flush|change|replace|append|prepend|exec|attach|detach|save|restore)$/;

/** The words of a command, read with the one option parser and the program's specification. */
const wordsOf = (args: readonly string[], spec: OptionSpelling, clusters = true): readonly string[] =>
  parseArguments(args, spec, { negativeNumbers: 'option', clusters }).positionals;

const ip: CommandRule = (scope) => {
  // ip's options are whole words (`-br`, `-json`); a network namespace's or a family's name given
  // to `-n` or `-f` is not the object.
  const words = wordsOf(scope.command.args, OPTION_SPECS.ip, false);
  const verb = words.slice(1).find((word) => IP_CHANGES.test(word));
  if (verb !== undefined) changes(scope, 'ip', `${words[0] ?? ''}-${verb}`);
};

/** `ifconfig [IFACE]` shows; anything after the interface (`down`, an address, `mtu 1400`) sets. */
const ifconfig: CommandRule = (scope) => {
  const words = wordsOf(scope.command.args, {});
  if (words.length > 1) changes(scope, 'ifconfig', words.slice(1).join(' '));
};

const route: CommandRule = (scope) => {
  if (scope.command.args.some((arg) => /^(add|del|delete|flush|change)$/.test(arg)))
    changes(scope, 'route', 'table');
};

/**
 * `date -s TIME`, `date --set=TIME`, or a bare `MMDDhhmm[[CC]YY][.ss]` operand sets the clock; a
 * date given to `-d` or a file to `-r` is only shown (`date -d 20261128 +%A`).
 */
const date: CommandRule = (scope) => {
  const parsed = parseArguments(scope.command.args, OPTION_SPECS.date, { negativeNumbers: 'option' });
  if (
    parsed.options.some((option) => option.name === '-s' || option.name === '--set') ||
    parsed.positionals.some((word) => /^\d{8}(\d{2}){0,2}(\.\d{2})?$/.test(word))
  )
    changes(scope, 'date', 'clock');
};

/** `hostname NAME` or `hostname -F FILE` renames the host; options alone (`-I`, `-f`) show. */
const hostname: CommandRule = (scope) => {
  const parsed = parseArguments(scope.command.args, OPTION_SPECS.hostname, { negativeNumbers: 'option' });
  if (
    parsed.options.some((option) => option.name === '-F' || option.name === '--file') ||
    parsed.positionals.length > 0
  )
    changes(scope, 'hostname', 'name');
};

/** `sysctl -w key=value`, `sysctl key=value`, `sysctl -p FILE` set kernel parameters. */
const sysctl: CommandRule = (scope) => {
  const args = scope.command.args;
  if (
    args.some(
      (arg) => arg === '-w' || arg === '--write' || arg === '-p' || arg === '--load' || /^[\w.]+=/.test(arg),
    )
  )
    changes(scope, 'sysctl', args.find((arg) => arg.includes('=')) ?? 'parameters');
};

/**
 * The system journal: reading it is routine; vacuuming, rotating away or flushing it deletes the
 * record of what happened on the machine (tampering with the record).
 */
const journalctl: CommandRule = (scope) => {
  const clearing = scope.command.args.find((arg) =>
    /^--(vacuum-(size|time|files)|rotate|flush|relinquish-var)\b/.test(arg),
  );
  if (clearing !== undefined)
    scope.add({ code: `tamper.journal:${clearing.split('=')[0]}`, destructive: RISK.deny, onTask: 0.05 });
  else scope.add({ code: 'system.journalctl.read', onTask: 0.8 });
};

export const SYSTEM_SETTING_RULES: ReadonlyMap<string, CommandRule> = new Map([
  ['ip', ip],
  ['ifconfig', ifconfig],
  ['route', route],
  ['date', date],
  ['hostname', hostname],
  ['sysctl', sysctl],
  ['journalctl', journalctl],
]);
