import { isLoopbackHost } from '../loopback-host.js';
import { scopeSeverity } from '../path-scope.js';
import { persistenceFinding } from '../persistence-target.js';
import { RISK } from '../risk-scale.js';
import { isCredentialPath, isSecretVariableName } from '../secret-source.js';
import type { CommandScope } from '../shell-command.js';

/**
 * Inline interpreter code (`python -c`, `node -e`, `perl -e`, `ruby -e`, heredocs fed to an
 * interpreter). The code is read, not executed: shell-outs with literal commands are analysed
 * as shell; file deletions are judged by the path literals; sockets, network clients and secret
 * reads feed the flow analysis. Code that hides what it runs (eval of decoded data) is not
 * understood.
 */
const SHELL_OUT =
  /\b(os\.system|os\.popen|subprocess\.(?:run|call|Popen|check_output|check_call|getoutput|getstatusoutput)|execSync|execFileSync|spawnSync|spawn|exec|execFile|system|popen|shell_exec|passthru|proc_open|Kernel\.exec|IO\.popen|Open3\.\w+|qx)\s*\(?/g;
const DELETES =
  /\b(rmtree|os\.remove|os\.unlink|os\.rmdir|os\.removedirs|\.unlink\(|\.rmdir\(|unlinkSync|rmSync|rmdirSync|fs\.rm\b|fs\.unlink\b|fs\.promises\.rm|fsPromises\.rm|rm_rf|rm_r\b|FileUtils\.rm|FileUtils\.remove|File\.delete|Dir\.rmdir|remove_tree|\bunlink\b|removeSync|emptyDirSync|\.truncate\()/;
const WRITES =
  /\bopen\([^)]*['"][wa]\+?b?['"]|\bopen\s*\(?[^)\n]*['"](?:>>?|\+[<>])|writeFileSync|appendFileSync|fs\.writeFile|File\.write|write_text|write_bytes|IO\.write|file_put_contents/;
const NETWORK =
  /\b(requests\.(?:post|put|patch|get)|urllib\.request|urlopen|http\.client|httpx|aiohttp|(?<![\w.])fetch\(|\b(?:window|globalThis|self)\.fetch\(|axios|https?\.request|Net::HTTP|LWP::|HTTP::Tiny|IO::Socket|socket\.socket|socket\.create_connection|net\.connect|net\.createConnection|TCPSocket|curl_exec|dns\.resolver|gethostbyname|smtplib|SMTP(?:_SSL)?\(|ftplib|FTP(?:_TLS)?\(|nodemailer|Net::SMTP|Net::FTP|paramiko)/;
const SOCKET_SHELL =
  /(socket|TCPSocket|IO::Socket|net\.connect)[\s\S]*(pty\.spawn|dup2|\/bin\/(ba)?sh|child_process|spawn\(|exec\()/;
const ENV_DUMP =
  /\bos\.environ\b(?!\s*\[|\.get)|\bprocess\.env\b(?!\.|\[)|\bENV\b(?!\s*\[|\.(fetch|key\?|has_key\?|include\?|delete))|%ENV\b|\bgetenv\(\)/;
const OBFUSCATED =
  /\b(b64decode|base64\.decode|atob|Buffer\.from\([^)]*['"]base64|codecs\.decode|__import__|compile\(|getattr\(|Function\(|unpack\(|pack\(|decode\(['"]hex|fromCharCode|\\x[0-9a-f]{2}\\x)/i;
/** `eval(…)`, and Perl's and Ruby's `eval EXPR` without parentheses. */
const NETWORK_OR_URL =
  /https?:\/\/|\b(get|getstore|urlopen|fetch|URI\.open|open-uri|file_get_contents|LWP::)\b/;
const EVAL = /\b(eval|exec)\s*\(|\beval\s+[\w$"'`]/;
/**
 * Principle 3: one variable read by name, in any language's spelling (`getenv("X")`,
 * `os.environ["X"]`, `process.env.X`, `ENV["X"]`, `$ENV{X}`, `Deno.env.get("X")`, `env::var("X")`).
 */
const ENV_READ =
  /(?:\bgetenv|\bGetenv|environ\.get|environ|\bprocess\.env|\bENV|\$ENV|env\.get|env::var|System\.getenv)\s*(?:\(|\[|\{|\.)\s*['"]?([A-Za-z_][A-Za-z0-9_]*)/g;
/** Principle 3: an http(s) URL literal in code names a host the code may send to, whatever the call spelling. */
const URL_LITERAL = /(['"`])(?:https?|wss?|ftp):\/\/(?:[^@/'"`\s]*@)?([^:/?#'"`\s]+)/g;

const ENDLESS_LOOP =
  /\bwhile\s*\(?\s*(True|true|1)\s*\)?\s*[:{]|\bfor\s*\(\s*;\s*;\s*\)|\bloop\s*\{|\bwhile\s+1\b|\bloop\s+do\b/;
const LOOP_EXIT = /\b(break|return|exit|sys\.exit|process\.exit|last)\b/;

/** Longest inline program read; longer code is not understood (and not scanned, to stay fast). */
export const MAX_INLINE_CODE_LENGTH = 65_536;

export function judgeInterpreterCode(scope: CommandScope, code: string, language: string): void {
  if (code.length > MAX_INLINE_CODE_LENGTH) {
    scope.add({
      code: `code.${language}.too-long`,
      uncertain: true,
      implausible: true,
      destructive: RISK.askLow,
    });
    return;
  }
  const origin = `${language}-code`;
  // Exhaustion (issue 27): a loop with no end and no way out (`while True:`, `for (;;)`) runs
  // until the memory, the cores or the other side give out; what it allocates or sends each pass
  // cannot be bounded by reading it.
  if (ENDLESS_LOOP.test(code) && !LOOP_EXIT.test(code))
    scope.add({
      code: `code.${language}.endless-loop`,
      uncertain: true,
      destructive: RISK.askLow,
      onTask: 0.3,
    });
  let understood = true;
  let shellOuts = 0;
  for (const match of code.matchAll(SHELL_OUT)) {
    if (language === 'python' && match[1] === 'exec') continue;
    shellOuts += 1;
    const literal = commandLiteralAfter(code, (match.index ?? 0) + match[0].length);
    if (literal !== undefined) scope.runShell(literal, origin);
    else understood = false;
  }
  if (language === 'ruby' || language === 'perl') {
    for (const match of code.matchAll(/`([^`]+)`|%x\(([^)]+)\)/g)) {
      shellOuts += 1;
      scope.runShell(match[1] ?? match[2] ?? '', origin);
    }
  }
  const paths = pathLiterals(code);
  if (DELETES.test(code)) {
    let severity: number = RISK.askHigh;
    for (const path of paths) {
      const classified = scope.path(path);
      severity = Math.max(severity, scopeSeverity(classified.scope, classified.namedByTask));
    }
    // Below a temp path we still cannot follow what the code computes: never low enough to allow.
    scope.add({
      code: `code.${language}.deletes-files`,
      destructive: Math.max(RISK.ask, severity === RISK.askHigh && paths.length > 0 ? RISK.ask : severity),
    });
  }
  if (WRITES.test(code)) {
    for (const path of paths) {
      const finding = persistenceFinding(scope.path(path).normalised, scope.task, `code.${language}.write`);
      if (finding !== undefined) scope.add(finding);
      else if (scope.path(path).scope === 'system')
        scope.add({ code: `code.${language}.writes-system:${path}`, destructive: RISK.deny });
    }
  }
  for (const path of paths) {
    if (isCredentialPath(scope.path(path).normalised)) {
      scope.add({ code: `secret.read:${path}`, exfil: RISK.ask, onTask: 0.4 });
      scope.secretSource(path);
    }
  }
  if (ENV_DUMP.test(code)) scope.secretSource(`${language}-environment`);
  for (const match of code.matchAll(ENV_READ))
    if (isSecretVariableName(match[1]!)) scope.secretSource(`$${match[1]}`);
  let namedHosts = 0;
  for (const match of code.matchAll(URL_LITERAL)) {
    namedHosts += 1;
    if (!isLoopbackHost(match[2]!)) scope.networkSink(`url:${match[2]!.toLowerCase()}`);
  }
  // Code that evaluates what it fetched runs code nobody has read (`eval get("https://…")`).
  if (EVAL.test(code) && NETWORK_OR_URL.test(code))
    scope.add({
      code: `code.${language}.evaluates-fetched-code`,
      uncertain: true,
      deny: RISK.askHigh,
      onTask: 0.2,
    });
  if (SOCKET_SHELL.test(code))
    scope.add({ code: `net.reverse-shell:${language}`, exfil: RISK.certain, onTask: 0.02 });
  if (NETWORK.test(code)) {
    // Where the code names its hosts, they are the sinks (a token sent to its issuer is its use);
    // a network client with no literal host may reach anywhere.
    if (namedHosts === 0) scope.networkSink(`${language}-network`);
    scope.add({ code: `code.${language}.network`, onTask: 0.6 });
  }
  if (
    OBFUSCATED.test(code) ||
    (EVAL.test(code) && language !== 'python') ||
    (language === 'python' && /\bexec\s*\(/.test(code))
  ) {
    understood = false;
  }
  if (!understood)
    scope.add({
      code: `code.${language}.not-understood`,
      uncertain: true,
      destructive: shellOuts > 0 ? RISK.ask : RISK.askLow,
    });
}

/** The string literal (or list of literals) that starts right after a call's opening. */
function commandLiteralAfter(code: string, index: number): string | undefined {
  const rest = code.slice(index).replace(/^\s*\(?\s*/, '');
  const list = /^\[((?:\s*(['"])(?:(?!\2).)*\2\s*,?)+)\]/.exec(rest);
  if (list !== null) {
    return [...list[1]!.matchAll(/(['"])((?:(?!\1).)*)\1/g)].map((item) => item[2]).join(' ');
  }
  const single = /^(['"`])((?:\\.|(?!\1).)*)\1/.exec(rest);
  if (single !== null) return single[2]!.replace(/\\(["'\\])/g, '$1');
  return undefined;
}

/**
 * The home directory as code spells it in each language: a deletion or a write through any of
 * these is one in the user's home, as `~` is in a shell (`require('os').homedir()`,
 * `Path.home()`, `$ENV{HOME}`, `os.environ["HOME"]`, `System.getProperty("user.home")`, …).
 */
const HOME_SPELLINGS =
  /expanduser\(\s*['"]~['"]\s*\)|\bhomedir\(\)|Path\.home\(\)|Dir\.home|\$ENV\{HOME\}|ENV\[\s*['"]HOME['"]\s*\]|process\.env\.HOME\b|process\.env\[\s*['"]HOME['"]\s*\]|environ(?:\.get\(|\[)\s*['"]HOME['"]|getenv\(\s*['"]HOME['"]\s*\)|UserHomeDir\(\)|home_dir\(\)|getProperty\(\s*['"]user\.home['"]\s*\)/;

function pathLiterals(code: string): string[] {
  const paths: string[] = [];
  // Perl's `$ENV{HOME}` and Ruby's `Dir.home + "/x"` name the home like `$HOME` does.
  const spelled = code.replace(/\$ENV\{HOME\}/g, '$HOME').replace(/\bDir\.home\s*\+\s*(['"])/g, '$1$HOME');
  for (const match of spelled.matchAll(/(['"])(?:>>?|\+?[<>])?((?:~|\/|\.{1,2}\/|\$HOME)[^'"\n]*)\1/g))
    paths.push(match[2]!);
  if (HOME_SPELLINGS.test(code)) paths.push('~');
  // A bare name is a path relative to the working directory: `open('.npmrc')` reads the project's.
  for (const match of code.matchAll(/(['"])([\w.@-][\w./@-]{0,200})\1/g))
    if (!paths.includes(match[2]!) && isCredentialPath(match[2]!)) paths.push(match[2]!);
  return paths;
}
