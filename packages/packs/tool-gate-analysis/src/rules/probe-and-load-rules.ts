import { isLoopbackHost } from '../loopback-host.js';
import { RISK } from '../risk-scale.js';
import type { CommandRule, CommandScope } from '../shell-command.js';

/**
 * Programs that probe or load other machines: port scanners, password guessers and HTTP load
 * generators. Aimed at this machine (loopback) they are a developer checking their own service;
 * aimed anywhere else they act on machines the task does not own, which is an attack on them or a
 * denial of service to their users.
 */

/** The hosts a command names: URLs' hosts, `host:port`, addresses, ranges and names. */
function targetsOf(args: readonly string[]): string[] {
  return args
    .filter((arg) => !arg.startsWith('-'))
    .map((arg) => {
      const url = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^/:]+)/i.exec(arg);
      return url ? url[1]! : arg.replace(/:\d+$/, '');
    })
    .filter((host) => /^(\[?[0-9a-f:]+\]?|[\w-]+(\.[\w-]+)*|\d{1,3}(\.\d{1,3}){3}(\/\d+)?)$/i.test(host))
    .filter((host) => /[.:]/.test(host) || host.toLowerCase() === 'localhost');
}

const judgeTargets = (scope: CommandScope, kind: string, elsewhere: number): void => {
  const { program, args } = scope.command;
  const targets = targetsOf(args);
  if (targets.length > 0 && targets.every(isLoopbackHost)) {
    scope.add({ code: `net.${kind}.loopback:${program}`, onTask: 0.8 });
    return;
  }
  scope.add({
    code: `net.${kind}:${program}:${targets[0] ?? 'unknown'}`,
    destructive: elsewhere,
    onTask: 0.1,
  });
};

const scanner: CommandRule = (scope) => judgeTargets(scope, 'scan', RISK.deny);
const guesser: CommandRule = (scope) => judgeTargets(scope, 'password-guessing', RISK.denyHigh);
const loadGenerator: CommandRule = (scope) => judgeTargets(scope, 'load', RISK.askHigh);

export const PROBE_AND_LOAD_RULES: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
  ...['nmap', 'masscan', 'zmap', 'rustscan', 'naabu', 'unicornscan'].map(
    (program) => [program, scanner] as const,
  ),
  ...['hydra', 'medusa', 'ncrack', 'patator', 'crowbar'].map((program) => [program, guesser] as const),
  ...['ab', 'hey', 'wrk', 'wrk2', 'k6', 'siege', 'vegeta', 'bombardier', 'autocannon', 'oha', 'h2load'].map(
    (program) => [program, loadGenerator] as const,
  ),
]);
