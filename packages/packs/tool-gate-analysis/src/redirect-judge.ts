import { judgeFileRead } from './file-read-judge.js';
import { literalOutput } from './literal-output.js';
import { isPackageSourceConfig } from './package-source.js';
import { persistenceFinding } from './persistence-target.js';
import { RISK } from './risk-scale.js';
import { isCredentialPath } from './secret-source.js';
import type { CommandScope, Redirect } from './shell-command.js';
import { taskForbidsChanges } from './task-scope.js';

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);

/** Judges where a redirection reads or writes: devices, sockets, system files, persistence. */
export function judgeRedirect(redirect: Redirect, scope: CommandScope): void {
  const { operator, target } = redirect;
  if (/^\d+$/.test(target) || target === '-') return;
  const reads = operator.endsWith('<') && !operator.includes('>');
  if (/^\/dev\/(tcp|udp)\//.test(target)) {
    scope.networkSink(target);
    const shell = SHELLS.has(scope.command.program);
    scope.add({
      code: shell ? `net.reverse-shell:${target}` : `net.dev-tcp:${target}`,
      exfil: shell ? RISK.certain : RISK.denyHigh,
      onTask: 0.02,
    });
    return;
  }
  const path = scope.path(target);
  if (reads) {
    // Principle 1: `cmd < file` reads the file as `cmd file` would; one judgement for both.
    judgeFileRead(scope, target);
    return;
  }
  if (/^\/dev\/(sd|hd|nvme|disk|rdisk|mmcblk|vd|xvd|md|dm-|mapper\/)/.test(target)) {
    scope.add({ code: `shell.redirect.device:${target}`, destructive: RISK.certain });
    return;
  }
  if (path.scope === 'device-null' || target.startsWith('/dev/fd/') || target === '/dev/tty') return;
  scope.wrote(path.normalised);
  const text = literalOutput(scope.command);
  if (text !== undefined) scope.wroteText(path.normalised, text);
  // Principle 7: a package manager's configuration decides where code is downloaded from.
  if (isPackageSourceConfig(path.normalised))
    scope.add({ code: `supply.source-config-write:${path.normalised}`, deny: RISK.askHigh, onTask: 0.3 });
  const persistence = persistenceFinding(path.normalised, scope.task, 'shell.redirect');
  if (persistence !== undefined) {
    scope.add(persistence);
    return;
  }
  if (taskForbidsChanges(scope.task) && path.scope !== 'temp')
    scope.add({ code: `task.forbids-changes:redirect:${path.normalised}`, onTask: 0.15 });
  const appends = operator.includes('>>');
  const where = path.normalised;
  switch (path.scope) {
    case 'system':
      scope.add({
        code: `shell.redirect.system:${where}`,
        destructive: appends ? RISK.askHigh : RISK.denyHigh,
        onTask: 0.3,
      });
      return;
    case 'home':
    case 'unknown':
      scope.add({
        code: `shell.redirect.outside-workspace:${where}`,
        destructive: appends ? RISK.askLow : RISK.ask,
        onTask: 0.5,
      });
      return;
    case 'workspace':
      if (isCredentialPath(where))
        scope.add({
          code: `shell.redirect.credential-file:${where}`,
          destructive: appends ? RISK.low : RISK.ask,
        });
      return;
    default:
      return;
  }
}
