import type { Finding } from './finding.js';
import { isLoopbackHost } from './loopback-host.js';
import { RISK } from './risk-scale.js';

/**
 * Changes to the shell's environment that alter what later commands run or what is recorded of
 * them, however they are spelled (`PATH=… cmd`, `export PATH=…`, `unset HISTFILE`).
 *
 * - Principle 2: a directory put on PATH before the system's makes every later command name resolve
 *   there first. A temporary or shared-memory directory holds files nobody reviewed and anyone may
 *   have written: `git` or `npm` then runs whatever lies there. Asked.
 * - Principle 3: a proxy variable sends every later request of the call, and the credentials it
 *   carries, through the proxy's host; one that is not this machine is asked.
 * - Tampering: switching off the shell's history hides what the session did from the person who
 *   reviews it, like clearing it (`history -c`). Asked.
 */
const TEMPORARY_DIRECTORY = /^(\/tmp|\/var\/tmp|\/dev\/shm|\/run\/shm|\$TMPDIR|\$\{TMPDIR\})(\/|$)/;

/** Proxy variables: every later request of the call, with the credentials it carries, goes through the host. */
const PROXY_VARIABLE = /^(https?|all|ftp)_proxy$/i;

export function environmentChangeFinding(name: string, value: string | undefined): Finding | undefined {
  if (PROXY_VARIABLE.test(name) && value !== undefined && value !== '') {
    const host = /^(?:[a-z]+:\/\/)?(?:[^@/]*@)?(\[[^\]]+\]|[^/:]+)/i.exec(value)?.[1] ?? '';
    if (!isLoopbackHost(host))
      return { code: `env.proxy:${host}`, exfil: RISK.askHigh, uncertain: true, onTask: 0.3 };
    return undefined;
  }
  if (name === 'PATH' && value !== undefined) {
    // The entries before the inherited `$PATH` come first; without `$PATH` every entry is new.
    const entries = value.split(':');
    const inherited = entries.findIndex((entry) => /^\$\{?PATH\}?$/.test(entry));
    const added = inherited === -1 ? entries : entries.slice(0, inherited);
    const planted = added.find((entry) => TEMPORARY_DIRECTORY.test(entry));
    if (planted !== undefined)
      return { code: `env.search-path:${planted}`, destructive: RISK.ask, uncertain: true, onTask: 0.3 };
    return undefined;
  }
  const historyOff =
    (name === 'HISTFILE' && (value === undefined || value === '' || value === '/dev/null')) ||
    ((name === 'HISTSIZE' || name === 'HISTFILESIZE' || name === 'SAVEHIST') && value === '0');
  if (historyOff)
    return { code: `tamper.history-off:${name}`, destructive: RISK.ask, deny: RISK.ask, onTask: 0.05 };
  return undefined;
}
