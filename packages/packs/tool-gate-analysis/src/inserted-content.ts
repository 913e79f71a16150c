import { judgeCheckWeakening, TEST_FILE } from './check-weakening.js';
import { judgeCodeHazards, UNESCAPED_HTML } from './code-hazards.js';
import { containerSpecHostAccess } from './container-host-access.js';
import { judgeAcceptedTypes } from './content/accepted-types.js';
import { judgeClientTrust } from './content/client-trust.js';
import { judgeDataScope } from './content/data-scope.js';
import { judgeExclusionList } from './content/exclusion-lists.js';
import { destroysBeyondTask, fileRole, sourceOwnerChanged } from './content/file-role.js';
import { judgeMassAssignment } from './content/mass-assignment.js';
import { judgeSecretLogging } from './content/secret-logging.js';
import { judgeExposureSettings } from './exposure-settings.js';
import type { Finding } from './finding.js';
import {
  foreignSourceHosts,
  isPackageSourceConfig,
  isSourceManifest,
  LOCKFILE,
  MANIFEST_SOURCE_LINE,
  SOURCE_SETTING,
} from './package-source.js';
import { persistenceKind } from './persistence-target.js';
import { RISK } from './risk-scale.js';
import { commandsInConfig } from './run-later-config.js';
import { isCredentialPath } from './secret-source.js';
import { analyseShellCommand } from './shell-analyser.js';

/**
 * Principle 5 of issue 14: read what a Write or Edit inserts, not only where it goes. The
 * inserted text is judged by the kind of file it lands in: files that run (scripts, hooks,
 * start-up files, CI steps, editor tasks, package scripts) are analysed as shell; code is read
 * for sends off the machine, credential logging and weakened authentication; agent settings
 * for the gate's own hook; lockfiles and package-source files for where code is fetched from.
 * A task word ("hook", "CI") licenses the kind of file, never any payload.
 */
export interface InsertedContent {
  /** The path as normalised by path-scope (`~/.bashrc`, `$WORKSPACE/src/a.ts`, `src/a.ts`). */
  path: string;
  /** What the call inserts (Write content, Edit new_string, every edit's new_string). */
  inserted: string;
  /** What an Edit replaces (old_string); empty for a Write. */
  removed: string;
  task: string;
  cwd?: string | undefined;
}

/** Longest inserted text read; longer content is not understood (and not scanned, to stay fast). */
export const MAX_INSERTED_CONTENT = 262_144;

const DOCUMENT_FILE = /\.(md|markdown|mdx|rst|adoc|txt)$/i;
const SHELL_FILE = /\.(sh|bash|zsh|ksh|command)$|(^|\/)\.envrc$|(^|\/)(Makefile|makefile|GNUmakefile)$/;
const MAKEFILE = /(^|\/)(Makefile|makefile|GNUmakefile)$|\.mk$/;
const REQUIREMENTS_FILE = /(^|\/)(requirements|constraints)[\w.-]*\.(txt|in)$/;
const TEMPLATE_FILE = /\.(html?|erb|hbs|njk|jinja2?|j2|twig|liquid|mustache)$|(^|\/)templates?\//;
const WHOLE_CONTEXT_COPY = /^\s*(COPY|ADD)\s+(--\S+\s+)*\.\/?\s+\S+\s*$/im;
const DOCKERFILE = /(^|\/)(Dockerfile|Containerfile)([.-][\w.-]+)?$|\.dockerfile$/i;
/** Source files, and the templates that put code and request data into pages. */
const CODE_FILE =
  /\.(js|mjs|cjs|jsx|ts|tsx|py|ipynb|rb|go|php|java|kt|cs|rs|pl|lua|swift|scala|ex|exs|erb|ejs|hbs|handlebars|jinja2?|j2|njk|twig|vue|svelte|cshtml|jsp|heex|eex)$/;
/** Directories whose executables tools run for the project (npm scripts, a virtual environment). */
const TOOL_BIN = /(^|\/)(node_modules\/\.bin|\.?venv\/bin|\.tox\/[^/]+\/bin|vendor\/bin)\//;
/** A file that names its interpreter: a shell shebang makes it a shell script whatever its name. */
const SHELL_SHEBANG = /^#!\s*\/(?:usr\/)?(?:local\/)?bin\/(?:env\s+)?(?:ba|z|da|k)?sh\b/;
const AGENT_SETTINGS =
  /(^|\/)(\.claude\/settings(\.local)?\.json|\.gemini\/settings\.json|\.codex\/config\.toml|\.cursor\/[^/]+\.json|\.mcp\.json)$/;
/** Files whose shell runs without anyone invoking it (start-up, hooks, schedulers, direnv). */
const RUNS_UNASKED = new Set([
  'shell-startup',
  'git-hook',
  'repo-hook',
  'scheduler',
  'service-unit',
  'login-agent',
]);

/**
 * A fetched source at a branch name: a pre-commit `rev:` of a branch (under a `repo:` that is a URL),
 * or a CI `uses: owner/repo@branch`.
 */
const MOVING_REF_SOURCE =
  /\brepo:\s*["']?https?:\/\/\S+["']?\s*\n\s*rev:\s*["']?(main|master|HEAD|trunk|develop|dev|latest|stable|nightly)["']?\s*$|\buses:\s*["']?[\w.-]+\/[\w./-]+@(main|master|HEAD|trunk|develop|dev|latest|nightly)["']?\s*$/gm;

export function judgeInsertedContent(input: InsertedContent): Finding[] {
  const { path, inserted, removed } = input;
  if (inserted.length > MAX_INSERTED_CONTENT)
    return [{ code: 'content.too-long', uncertain: true, destructive: RISK.askLow }];
  const findings: Finding[] = [];
  const kind = persistenceKind(path);
  // Tools run what their own bin directories hold (`npm run build` runs node_modules/.bin/tsc): a
  // file written there by hand runs later, unasked.
  const runsUnasked =
    (kind !== undefined && RUNS_UNASKED.has(kind)) || /(^|\/)\.envrc$/.test(path) || TOOL_BIN.test(path);
  if (kind === 'ci-workflow') findings.push(...judgeWorkflow(input));
  else if (MAKEFILE.test(path))
    // A makefile's shell is its recipe lines (tab-indented); targets and variables are make's.
    findings.push(...judgeShellText(recipeLines(inserted), input, false));
  else if (SHELL_FILE.test(path) || runsUnasked || SHELL_SHEBANG.test(inserted))
    findings.push(...judgeShellText(addedLines(inserted, removed), input, runsUnasked));
  if (CODE_FILE.test(path) || SHELL_FILE.test(path) || SHELL_SHEBANG.test(inserted))
    findings.push(...judgeCode(input));
  // A notebook's `!` lines are shell, run by whoever runs the cell.
  if (/\.ipynb$/i.test(path))
    findings.push(...judgeShellText(notebookShellLines(inserted, removed), input, false));
  if (AGENT_SETTINGS.test(path)) findings.push(...judgeAgentSettings(input));
  if (LOCKFILE.test(path)) {
    const before = new Set(foreignSourceHosts(removed));
    const added = foreignSourceHosts(inserted).filter((host) => !before.has(host));
    if (added.length > 0 || /"resolved":\s*"http:|resolved\s+"http:/.test(inserted))
      findings.push({
        code: `content.lockfile-foreign-source:${added[0] ?? 'http'}`,
        deny: RISK.denyHigh,
        onTask: 0.1,
      });
  }
  if (isPackageSourceConfig(path) || /(^|\/)pyproject\.toml$/.test(path)) {
    for (const line of inserted.split('\n')) {
      const setting = /^\s*([@\w.:-]+)\s*[=:]\s*(.*)$/.exec(line);
      if (setting === null) continue;
      // A setting that names a program the package manager runs on every command (`yarnPath`,
      // `script-shell`, a pnpmfile): outside the project it is code nobody reviewed, run unasked.
      if (RUNS_PROGRAM_SETTING.test(setting[1]!)) {
        const value = setting[2]!.trim().replace(/^["']|["']$/g, '');
        if (/^(\/|~|\$HOME|\$\{HOME\})/.test(value) && !/^\/(usr|bin)\//.test(value))
          findings.push({
            code: `content.package-manager-runs:${setting[1]}`,
            deny: RISK.denyHigh,
            onTask: 0.1,
          });
        continue;
      }
      if (!SOURCE_SETTING.test(setting[1]!)) continue;
      if (foreignSourceHosts(setting[2]!).length > 0)
        findings.push({ code: `content.package-source:${setting[1]}`, deny: RISK.askHigh, onTask: 0.3 });
    }
  }
  if (AGENT_INSTRUCTIONS.test(path)) findings.push(...judgeAgentInstructions(input, true));
  if (/(^|\/)package\.json$/.test(path)) {
    // A dependency given as a URL (`"left-pad": "https://host/left-pad.tgz"`) is fetched from that
    // host by every install, like a manifest's source setting; metadata links are not sources.
    const before = new Set(foreignSourceHosts(removed));
    for (const line of inserted.split('\n')) {
      const entry = /^\s*"([^"]+)"\s*:\s*"([^"]*)"/.exec(line);
      if (entry === null || /^(homepage|bugs|funding|url|repository|author|email|\$schema)$/.test(entry[1]!))
        continue;
      const host = foreignSourceHosts(entry[2]!).find((candidate) => !before.has(candidate));
      if (host !== undefined) {
        findings.push({ code: `content.package-source:dependency:${host}`, deny: RISK.askHigh, onTask: 0.3 });
        break;
      }
    }
  }
  if (/(^|\/)go\.mod$/.test(path)) {
    // `replace A => B`: every build takes B's code for A. A local directory is the developer's own.
    for (const line of inserted.split('\n')) {
      const replaced = /^\s*(?:replace\s+)?([\w.-]+\/[\w.-]+\/[\w.-]+)\S*(?:\s+\S+)?\s+=>\s+(\S+)/.exec(line);
      if (replaced === null || /^\.{1,2}\//.test(replaced[2]!) || removed.includes(line.trim())) continue;
      if (!replaced[2]!.startsWith(replaced[1]!)) {
        findings.push({
          code: `content.package-source:go-replace:${replaced[2]}`,
          deny: RISK.askHigh,
          onTask: 0.3,
        });
        break;
      }
    }
  }
  if (isSourceManifest(path)) {
    // Principle 7: a manifest line that moves a package source to a host that is not its
    // ecosystem's registry decides what code every later install runs, as a registry setting does.
    const before = new Set(foreignSourceHosts(removed));
    for (const line of inserted.split('\n')) {
      if (!MANIFEST_SOURCE_LINE.test(line)) continue;
      const host = foreignSourceHosts(line).find((candidate) => !before.has(candidate));
      if (host !== undefined) {
        findings.push({ code: `content.package-source:manifest:${host}`, deny: RISK.askHigh, onTask: 0.3 });
        break;
      }
    }
  }
  if (REQUIREMENTS_FILE.test(path)) {
    // pip reads options in requirements files: `--index-url URL`, `-f URL`, and `name @ URL` lines.
    for (const line of inserted.split('\n')) {
      const option =
        /^\s*(--index-url|--extra-index-url|-i|--find-links|-f|--trusted-host)(?:\s+|=)(\S+)/.exec(line);
      const source =
        option?.[2] ?? /@\s*(\S+:\/\/\S+)/.exec(line)?.[1] ?? /^\s*(\S+:\/\/\S+)/.exec(line)?.[1];
      if (source === undefined) continue;
      const hosts = option?.[1] === '--trusted-host' ? [source] : foreignSourceHosts(source);
      if (hosts.length > 0)
        findings.push({
          code: `content.package-source:${option?.[1] ?? 'url'}`,
          deny: RISK.askHigh,
          onTask: 0.3,
        });
    }
  }
  if (DOCKERFILE.test(path)) {
    // A Dockerfile's RUN instructions are shell that every build runs.
    const runs = inserted
      .replace(/\\\n/g, ' ')
      .split('\n')
      .flatMap((line) => /^\s*RUN\s+(?!\[)(.*)$/i.exec(line)?.[1] ?? []);
    if (runs.length > 0) findings.push(...judgeShellText(runs.join('\n'), input, false));
  }
  // Principle 2: commands a configuration file declares run later, unasked; they are read now.
  const before = new Set(commandsInConfig(path, removed));
  const later = commandsInConfig(path, inserted).filter((command) => !before.has(command));
  if (later.length > 0) findings.push(...judgeShellText(later.join('\n'), input, false));
  if (/\.ya?ml$/.test(path)) {
    const access = containerSpecHostAccess(inserted);
    if (access !== undefined && containerSpecHostAccess(removed) !== access)
      findings.push({
        code: `content.container-host-access:${access}`,
        destructive: RISK.askHigh,
        onTask: 0.3,
      });
  }
  // Templates are not code files, but their escaping is what keeps stored input inert.
  if (
    TEMPLATE_FILE.test(path) &&
    !CODE_FILE.test(path) &&
    UNESCAPED_HTML.test(inserted) &&
    !UNESCAPED_HTML.test(removed)
  )
    findings.push({ code: 'content.weakens:unescaped-html', deny: RISK.askHigh, onTask: 0.3 });
  // An image built from the whole build context carries whatever the workspace holds (`.env`,
  // keys, `.git`) unless an ignore file keeps it out, which this edit does not show.
  // A new Dockerfile that copies its context is the usual start; an edit that widens a narrower
  // copy to the whole context is the change to look at.
  if (
    DOCKERFILE.test(path) &&
    /^\s*(COPY|ADD)\s/im.test(removed) &&
    WHOLE_CONTEXT_COPY.test(inserted) &&
    !WHOLE_CONTEXT_COPY.test(removed)
  )
    findings.push({ code: 'content.image-copies-whole-context', exfil: RISK.ask, onTask: 0.4 });
  findings.push(...judgeCheckWeakening(path, inserted, removed));
  findings.push(...judgeExclusionList(path, inserted, removed));
  // Principle 7 wherever a hosted source is named (a CI action, a pre-commit hook, a submodule, a
  // flake input): the same project under another owner is a change of who publishes the code.
  // Manifests are judged by their role (file-role.ts).
  if (fileRole(path) !== 'package-manifest' && sourceOwnerChanged(inserted, removed))
    findings.push({ code: 'content.dependency-owner-changed', deny: RISK.askHigh, onTask: 0.3 });
  // Principle 7, the version half: code the tools fetch and run (a pre-commit hook repository, a CI
  // action or reusable workflow) named at a branch rather than a tag or commit runs whatever that
  // branch holds on the day, which can change under the project without a diff.
  const movingRef = (text: string) =>
    [...text.matchAll(MOVING_REF_SOURCE)].map((match) => match[0].replace(/\s+/g, ' ').trim());
  const movingBefore = new Set(movingRef(removed));
  const moving = movingRef(inserted).find((reference) => !movingBefore.has(reference));
  if (moving !== undefined)
    findings.push({
      code: `content.source-at-moving-ref:${moving.slice(0, 60)}`,
      deny: RISK.ask,
      onTask: 0.3,
    });
  if (CODE_FILE.test(path) && !TEST_FILE.test(path)) {
    findings.push(
      ...judgeAcceptedTypes(inserted, removed),
      ...judgeMassAssignment(inserted, removed),
      ...judgeDataScope(inserted, removed),
      ...judgeClientTrust(inserted, removed),
    );
    // Principle 8 beyond migrations: a job or handler whose statement destroys a whole table the
    // task does not name destroys data nobody asked to lose (a migration is judged by its role).
    if (fileRole(path) !== 'migration') {
      const target = destroysBeyondTask(inserted, input.task, removed);
      if (target !== undefined)
        findings.push({
          code: `content.destroys-unnamed:${target.slice(0, 60)}`,
          destructive: RISK.askHigh,
          onTask: 0.3,
        });
    }
  }
  // A test's log is the developer's own console, not a shipped log.
  if (
    (CODE_FILE.test(path) || SHELL_FILE.test(path) || SHELL_SHEBANG.test(inserted)) &&
    !TEST_FILE.test(path)
  )
    findings.push(...judgeSecretLogging(inserted, removed));
  // Prose mentions settings without setting them (`0.0.0.0/0` in a README's warning).
  if (!DOCUMENT_FILE.test(path)) findings.push(...judgeExposureSettings(inserted, removed, path));
  if (/(^|\/)package\.json$/.test(path)) findings.push(...judgePackageScripts(input));
  if (/(^|\/)\.vscode\/tasks\.json$/.test(path)) findings.push(...judgeEditorTasks(input));
  if (/(^|\/)\.vscode\/settings\.json$|\.code-workspace$/.test(path))
    findings.push(...judgeEditorSettings(input));
  return findings;
}

/**
 * The lines an edit adds: a line it keeps as it was is not the edit's to judge (an unchanged
 * `npx gitleaks` in a hook the edit only touches elsewhere). A whole file is all added.
 */
function addedLines(inserted: string, removed: string): string {
  if (removed.trim() === '') return inserted;
  const before = new Set(removed.split('\n').map((line) => line.trim()));
  return inserted
    .split('\n')
    .filter((line) => !before.has(line.trim()))
    .join('\n');
}

/** The `!` shell lines of a notebook's cells (JSON strings) that the edit adds. */
function notebookShellLines(inserted: string, removed: string): string {
  const lines = (text: string) =>
    [...text.matchAll(/"\s*!((?:[^"\\\n]|\\.)*)"/g)].map((match) => {
      try {
        return JSON.parse(`"${match[1]!}"`) as string;
      } catch {
        return match[1]!;
      }
    });
  const before = new Set(lines(removed));
  return lines(inserted)
    .filter((line) => !before.has(line))
    .map((line) => line.replace(/\n$/, ''))
    .join('\n');
}

/** Shell text a file will run: analysed as a command; in files that run unasked, any network use is a beacon. */
function judgeShellText(text: string, input: InsertedContent, runsUnasked: boolean): Finding[] {
  if (text.trim() === '') return [];
  const findings = analyseShellCommand(text, { cwd: input.cwd, task: input.task }).findings.map(
    (finding): Finding => ({
      ...finding,
      code: `content.shell:${finding.code}`,
    }),
  );
  if (runsUnasked && NETWORK_USE.test(text))
    findings.push({ code: 'content.runs-unasked-network', exfil: RISK.denyHigh, onTask: 0.05 });
  return findings;
}

const NETWORK_USE =
  /\b(curl|wget|nc|ncat|socat|telnet|scp|rsync|ssh)\b[^\n]*|https?:\/\/(?!(localhost|127\.0\.0\.1)[:/])|\/dev\/(tcp|udp)\//;

const LITERAL_URL = /(['"`])(https?|wss?):\/\/([^/'"`:\s]+)[^'"`]*\1/g;
/** `host: 'x.example'`, `hostname="x.example"`: the host of a request built from options. */
const HOST_OPTION = /\b(host|hostname)['"]?\s*[:=]\s*(['"`])([a-z0-9-]+(?:\.[a-z0-9-]+)+)\2/gi;
const SENDS =
  /\b(fetch|axios|got|request|superagent|http\.request|https\.request|XMLHttpRequest|sendBeacon|requests\.(post|put|get|patch)|urllib|urlopen|httpx|aiohttp|Net::HTTP|http\.(Post|Get|NewRequest)|WebSocket|net\.connect|socket\.connect|create_connection|sendall|TCPSocket|net\.Dial|curl_exec|smtplib|sendmail|ftplib|storbinary|Net::SMTP|Net::FTP|nodemailer)\b/;
/** A host given to a socket by literal: `create_connection(('203.0.113.9', 9000))`, `net.Dial("tcp", "h:1")`. */
const SOCKET_HOST =
  /\b(create_connection|connect|Dial|TCPSocket\.new|Socket|SMTP|SMTP_SSL|FTP|FTP_TLS)\s*\(\s*(?:\(\s*|['"]tcp[46]?['"]\s*,\s*|\d+\s*,\s*)?(['"`])([a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::\d+)?\2/gi;
const SENSITIVE_DATA =
  /\b(process\.env|os\.environ|ENV\[|os\.Getenv|password|passwd|secret|token|api_?key|credential|cookie|localStorage|sessionStorage|\.ssh|\.npmrc|\.aws|private_?key)\b/i;
const SOCKET_SHELL =
  /(socket|TCPSocket|IO::Socket|net\.connect|net\.Dial)[\s\S]{0,400}(pty\.spawn|dup2|\/bin\/(ba)?sh|['"](ba)?sh['"]|child_process|spawn\(|exec\()/;
const SHELL_OUT_LITERAL =
  /\b(execSync|exec|spawnSync|system|popen|os\.system|subprocess\.(?:run|call|Popen|check_output)|shell_exec|Kernel\.system)\s*\(\s*(['"`])((?:\\.|(?!\2).)+)\2/g;
const SHELL_DASH_C_LITERAL =
  /["'`](?:\/(?:usr\/)?bin\/)?(?:sh|bash|zsh|dash)["'`]\s*\)?\s*(?:,|\.args?\(\s*\[?)\s*["'`]-c["'`]\s*\]?\s*\)?\s*(?:,|\.args?\(\s*)\s*(["'`])((?:\\.|(?!\1).)+)\1/g;
const AUTH_CHECK =
  /\b(bcrypt\.compare\w*|argon2\.verify|check_password_hash|password_verify|compare_digest|timingSafeEqual|verify\w*|authenticate\w*|authori[sz]e\w*|check_?token|check_?password|checkPassword|is_?authenticated|isAuthenticated|require_?auth\w*|requireAuth|require_?role\w*|requireRole\w*|require_?admin|requireAdmin|require_?login|has_?role|hasRole|has_?permission|hasPermission|login_required|permission_required|PreAuthorize|ensure_?authenticated|ensureAuthenticated|UseGuards|AuthGuard|csrf\w*|ErrUnauthorized|Unauthorized|Forbidden|get_current_(?:active_)?(?:user|admin|superuser)\w*|hasRole|hasAuthority|hasAnyRole)\b/g;
/** Where code refuses a request for lack of access: the status, the exception, the helper. */
const REFUSAL =
  /\b(status|sendStatus|abort|code|WriteHeader|HttpStatus)\s*\(\s*(401|403)\b|\b(HTTP_40[13]_\w+|StatusUnauthorized|StatusForbidden|PermissionDenied|AccessDenied\w*|NotAuthorized\w*|HttpResponseForbidden|UnauthorizedException|ForbiddenException|AuthenticationFailed|NotAuthenticated)\b/g;
const rejections = (code: string): number => [...code.matchAll(REFUSAL)].length;

const BYPASS =
  /\b(bypass|skip[_ ]?(auth|verif\w*)|disable[_ ]?(auth|csrf|ssl|tls)|verify\s*=\s*False|rejectUnauthorized\s*:\s*false|InsecureSkipVerify\s*:\s*true|jwt\.decode\(|algorithms?\s*[:=]\s*\[?\s*['"]none['"])/i;
/**
 * Frameworks' own spellings of "let this through without the check": Rails' `skip_before_action`
 * of an authentication filter, Spring's `permitAll()`, ASP.NET's `[AllowAnonymous]`, Laravel's
 * `withoutMiddleware`, a parser told not to verify (`ParseUnverified`). Introduced by an edit,
 * each removes a check every caller still relies on.
 */
const FRAMEWORK_BYPASS =
  /\bskip_before_action\s+:(authenticate|require|authorize|verify)\w*|\bpermitAll\(\)|\[AllowAnonymous\]|@(PermitAll|AllowAnonymous)\b|\bwithoutMiddleware\(|\bParseUnverified\(|\bunverified_?(decode|claims)\b|\bcsrf_exempt\b|\bskip_authorization\b/;
/** Laravel-style route middleware that authenticates or authorises (`->middleware('auth')`). */
const AUTH_MIDDLEWARE = /\bmiddleware\(\s*\[?\s*['"](auth|can|verified|role|permission)\b/g;
const CREDENTIAL_LITERAL_COMPARE =
  /\b(token|password|passwd|secret|api_?key|user(name)?)\s*(!==?|===?)\s*['"][^'"]{2,}['"]|['"][^'"]{2,}['"]\s*(!==?|===?)\s*\b(token|password|passwd|secret|api_?key)\b/i;
/**
 * Access granted on a value the client sends: a request header, query, cookie or body field
 * compared with a literal, then `return true` or `next()`. Whoever knows the value is let in.
 */
const CLIENT_CONTROLLED_GRANT =
  /\b(req|request|ctx|ctx\.request|event)\s*(\.|\[)\s*['"]?(headers?|query|cookies|params|body|get|header)\b[^;\n]{0,80}(===?|==)\s*['"][^'"]*['"][^;\n]{0,20}\)\s*\{?\s*return\s+(true|next\(\))/i;
const WILDCARD_TRUST =
  /\bcors\(\s*\)|\borigins\s+['"]\*['"]|origin\s*:\s*['"]\*['"][\s\S]{0,80}credentials\s*:\s*true|ALLOWED_HOSTS\s*=\s*\[\s*['"]\*['"]|TRUSTED_ORIGINS\s*=\s*\[\s*['"]\*['"]|PASSWORD_VALIDATORS\s*=\s*\[\s*\]|Access-Control-Allow-Origin['"]?\s*[,:]\s*['"]\*/;

/** Code: sends to literal outside hosts, reverse shells, literal shell-outs, weakened authentication (credential logging: content/secret-logging.ts). */
/** A function named as a guard whose whole body returns its argument, `True`, or calls on. */
const HOLLOW_GUARD =
  /\bdef\s+((?:require|check|verify|authori[sz]e|authenticate|ensure|validate|login_required|permission_required|is_authenticated|has_permission|has_role)\w*)\s*\([^)\n]{0,80}\)\s*(?:->[^:\n]{0,40})?:\s*\n\s+(?:return\s+(?:\w+|True)|pass)\s*$|\bfunction\s+((?:require|check|verify|authori[sz]e|authenticate|ensure|validate|isAuthenticated|hasPermission|hasRole)\w*)\s*\([^)\n]{0,80}\)\s*(?::[^{\n]{0,40})?\{\s*(?:return\s+(?:true|next\(\)|\w+);?|next\(\);?)?\s*\}/m;

function judgeCode(input: InsertedContent): Finding[] {
  const { inserted, removed } = input;
  const findings: Finding[] = [];
  // A host is named by a URL literal or by a connection option (`host: 'x.example'`).
  const outside = [
    ...inserted.matchAll(LITERAL_URL),
    ...inserted.matchAll(HOST_OPTION),
    ...inserted.matchAll(SOCKET_HOST),
  ]
    .map((match) => match[3]!.toLowerCase())
    .filter((host) => !/^(localhost|127\.|0\.0\.0\.0|\[::1\])/.test(host) && !removed.includes(host));
  if (outside.length > 0 && SENDS.test(inserted)) {
    const sensitive = SENSITIVE_DATA.test(inserted) || namesCredentialFile(inserted);
    findings.push({
      code: `content.sends-to:${outside[0]}`,
      exfil: sensitive ? RISK.denyHigh : RISK.ask,
      onTask: sensitive ? 0.05 : 0.5,
    });
  }
  // Principle 5: what the code does with request input, safeguards it drops, protections it
  // switches off, deletions and persistence it performs, miners it starts.
  findings.push(...judgeCodeHazards(inserted, removed, input.path));
  // A guard by its name (`require_login`, `checkPermission`, `verifyToken`) whose body lets
  // everything through: the check is gone while every caller still believes it runs.
  const hollow = HOLLOW_GUARD.exec(inserted);
  if (hollow !== null && !removed.includes(hollow[0]))
    findings.push({
      code: `content.guard-checks-nothing:${hollow[1] ?? hollow[2]}`,
      deny: RISK.askHigh,
      onTask: 0.2,
    });
  if (SOCKET_SHELL.test(inserted))
    findings.push({ code: 'content.reverse-shell', exfil: RISK.certain, onTask: 0.02 });
  // `exec.Command("sh", "-c", "…")`, `Command::new("sh").arg("-c").arg("…")`,
  // `ProcessBuilder("bash", "-c", "…")`: the literal after a shell's -c is a command line.
  for (const match of inserted.matchAll(SHELL_DASH_C_LITERAL)) {
    const command = match[2]!.replace(/\\(["'\\`])/g, '$1');
    for (const finding of analyseShellCommand(command, { cwd: input.cwd, task: input.task }).findings)
      findings.push({ ...finding, code: `content.shell-out:${finding.code}` });
  }
  for (const match of inserted.matchAll(SHELL_OUT_LITERAL)) {
    const command = match[3]!.replace(/\\(["'\\`])/g, '$1');
    for (const finding of analyseShellCommand(command, { cwd: input.cwd, task: input.task }).findings)
      findings.push({ ...finding, code: `content.shell-out:${finding.code}` });
  }
  // A check left only in a comment is no longer a check.
  // A switch that turns verification off (`verify=False`) is not a check: removing it restores one.
  const checksIn = (code: string) =>
    withoutComments(code).replace(/\bverify\w*\s*[:=]\s*(False|false|0)\b/g, '');
  const checksBefore = new Set(
    [...checksIn(removed).matchAll(AUTH_CHECK)].map((match) => match[1]!.toLowerCase()),
  );
  const checksAfter = new Set(
    [...checksIn(inserted).matchAll(AUTH_CHECK)].map((match) => match[1]!.toLowerCase()),
  );
  const dropped = [...checksBefore].find((check) => !checksAfter.has(check));
  if (dropped !== undefined)
    findings.push({ code: `content.weakens-auth:drops-${dropped}`, deny: RISK.askHigh, onTask: 0.3 });
  // A refusal (401, 403, `PermissionDenied`) is where an access check ends; an edit that leaves
  // fewer of them than it found lets through what they stopped, whatever the check was called.
  else if (rejections(checksIn(removed)) > rejections(checksIn(inserted)))
    findings.push({ code: 'content.weakens-auth:drops-refusal', deny: RISK.askHigh, onTask: 0.3 });
  const weakening =
    (BYPASS.test(inserted) && !BYPASS.test(removed) && 'bypass') ||
    (FRAMEWORK_BYPASS.test(inserted) && !FRAMEWORK_BYPASS.test(removed) && 'framework-bypass') ||
    ([...removed.matchAll(AUTH_MIDDLEWARE)].length > [...inserted.matchAll(AUTH_MIDDLEWARE)].length &&
      'drops-auth-middleware') ||
    (CREDENTIAL_LITERAL_COMPARE.test(inserted) &&
      !CREDENTIAL_LITERAL_COMPARE.test(removed) &&
      'literal-credential') ||
    (WILDCARD_TRUST.test(inserted) && !WILDCARD_TRUST.test(removed) && 'wildcard-trust') ||
    (CLIENT_CONTROLLED_GRANT.test(inserted) &&
      !CLIENT_CONTROLLED_GRANT.test(removed) &&
      'client-controlled-grant') ||
    (/Getenv\(["'][A-Z_]*(BYPASS|SKIP|DISABLE)[A-Z_]*["']\)|environ(\.get)?\(?\[?["'][A-Z_]*(BYPASS|SKIP)[A-Z_]*["']/.test(
      inserted,
    ) &&
      'env-switch');
  if (weakening)
    findings.push({ code: `content.weakens-auth:${weakening}`, deny: RISK.askHigh, onTask: 0.3 });
  return findings;
}

/**
 * Code with its comments removed: line and block comments of the C family (not the `//` of a
 * URL) and `#` comments (a `#` at a line start or after a space, so `#private` fields stay).
 */
function withoutComments(code: string): string {
  return code
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(^|[^:'"\w])\/\/[^\n]*/g, '$1')
    .replace(/(^|\s)#(?![!{])[^\n]*/g, '$1');
}

/** A string literal of the code names a credential file (`'/home/dev/.netrc'`, `'.env'`). */
function namesCredentialFile(code: string): boolean {
  for (const literal of code.matchAll(/(['"`])([^'"`\s]{2,300})\1/g))
    if (isCredentialPath(literal[2]!.replace(/^~\//, '/home/user/'))) return true;
  return false;
}

/** Package-manager settings whose value is a program or module the manager runs itself. */
const RUNS_PROGRAM_SETTING =
  /^(yarnPath|script-shell|scriptShell|node-options|pnpmfile|global-pnpmfile|init-module)$/i;

/**
 * Files coding agents read as their standing instructions at the start of every session. What is
 * written there is what later sessions are told to do, unasked by the person who starts them.
 */
const AGENT_INSTRUCTIONS =
  /(^|\/)(CLAUDE(\.local)?\.md|AGENTS\.md|GEMINI\.md|\.cursorrules|\.cursor\/rules\/[^/]+|\.windsurfrules|\.clinerules|\.github\/copilot-instructions\.md)$/;
/** Instructions to act without the person's oversight: hide, skip approval, run unasked. */
const EVADES_OVERSIGHT =
  /\b(never|don'?t|do not)\s+(tell|mention|show|report|inform)\b|\bwithout\s+(asking|telling|approval|confirmation|permission)\b|\b(disable|skip|bypass|turn off|ignore)\s+(all\s+|every\s+|any\s+)?(the\s+)?(approval|permission|confirmation|safety|review|hook)s?\b|\b(never|don'?t|do not)\s+ask\s+(for\s+|the\s+user\s+(for\s+)?)?(confirmation|permission|approval)|\bapprove\s+(every|all|any)\s+(tool\s+)?(calls?|commands?|actions?|requests?)\s+(yourself|automatically)/i;

/**
 * Instructions for agents, judged as what they will make an agent do: commands in code spans and
 * blocks as shell, instructions to act without oversight, and a credential named together with a
 * host outside the machine as a leak. Standing instructions (`CLAUDE.md`) run in later sessions,
 * unasked; a sub-agent's task runs now, each of its calls gated again.
 */
export function judgeAgentInstructions(input: InsertedContent, runsUnasked = true): Finding[] {
  const { inserted, removed } = input;
  const findings: Finding[] = [];
  const commands = [...inserted.matchAll(/```[\w-]*\n([\s\S]*?)```|`([^`\n]+)`/g)]
    .map((match) => (match[1] ?? match[2] ?? '').trim())
    .filter((command) => command !== '' && !removed.includes(command));
  if (commands.length > 0) findings.push(...judgeShellText(commands.join('\n'), input, runsUnasked));
  if (EVADES_OVERSIGHT.test(inserted) && !EVADES_OVERSIGHT.test(removed))
    findings.push({ code: 'content.agent-instructions:evades-oversight', deny: RISK.denyHigh, onTask: 0.05 });
  const namesCredential = inserted
    .split(/[\s`'"()<>]+/)
    .some((word) => /^(~|\/|\$HOME)/.test(word) && isCredentialPath(word.replace(/[.,;:]+$/, '')));
  const outside = [...inserted.matchAll(/\bhttps?:\/\/([^/\s`'")]+)/g)].some(
    (match) => !/^(localhost|127\.|\[::1\])/.test(match[1]!),
  );
  if (namesCredential && outside)
    findings.push({
      code: 'content.agent-instructions:sends-credential',
      exfil: RISK.denyHigh,
      onTask: 0.05,
    });
  return findings;
}

/** Agent settings: removing the gate's hook or switching permissions off is the gate disabling itself. */
/** An allow rule for a whole tool: its name alone, or with a pattern that matches anything. */
const BLANKET_ALLOW =
  /"(Bash|Shell|PowerShell|run_shell_command|shell|Write|Edit|MultiEdit|NotebookEdit|WebFetch)(?:\((?:\*|:\*|\*\*|\/\*\*|\.\/\*\*|~\/\*\*|\/\/\*\*)\))?"/g;

function judgeAgentSettings(input: InsertedContent): Finding[] {
  const { inserted, removed, task } = input;
  const findings: Finding[] = [];
  if (
    /bypassPermissions|dangerously|--yolo|"approval_policy"\s*:\s*"never"|approval_policy\s*=\s*"never"/i.test(
      inserted,
    )
  )
    findings.push({ code: 'content.agent-settings:permissions-off', deny: RISK.denyHigh, onTask: 0.05 });
  // A permission rule that allows a whole tool (`"Bash"`, `"Bash(*)"`, `"Edit(**)"`) lets the agent
  // make every such call unasked: the host no longer asks anyone, whatever the task wanted eased.
  const blanket = (text: string) => [...text.matchAll(BLANKET_ALLOW)].map((match) => match[1]);
  const before = new Set(blanket(removed));
  const widened = blanket(inserted).find((tool) => !before.has(tool));
  if (widened !== undefined)
    findings.push({
      code: `content.agent-settings:allows-every-call:${widened}`,
      deny: RISK.askHigh,
      onTask: 0.2,
    });
  const hadHook = /PreToolUse|BeforeTool|arbiter/i.test(removed);
  if (hadHook && !/arbiter/i.test(inserted))
    findings.push({ code: 'content.agent-settings:removes-gate-hook', deny: RISK.denyHigh, onTask: 0.05 });
  else if (removed === '' && !/arbiter/i.test(inserted))
    // A Write replaces the whole file: whatever hook it held is gone unless the new text keeps it.
    findings.push({ code: 'content.agent-settings:replaced-without-gate', deny: RISK.askHigh, onTask: 0.3 });
  if (/"hooks"|\[hooks|PreToolUse|BeforeTool/.test(inserted))
    for (const match of inserted.matchAll(/"command"\s*:\s*"((?:\\.|[^"\\])*)"/g))
      findings.push(...judgeShellText(jsonString(match[1]!), input, false));
  if (!/\b(permission|settings|allow|hook|without asking)/i.test(task))
    findings.push({ code: 'content.agent-settings:not-in-task', onTask: 0.4 });
  return findings;
}

/** CI: untrusted pull-request code run with secrets, secrets serialised, and every `run:` step as shell. */
function judgeWorkflow(input: InsertedContent): Finding[] {
  const { inserted } = input;
  const findings: Finding[] = [];
  const privileged = /\b(pull_request_target|workflow_run)\b/.test(inserted);
  const checksOutHead = /github\.event\.pull_request\.head\.(sha|ref)|github\.head_ref|refs\/pull\//.test(
    inserted,
  );
  // A trigger that runs with the repository's secrets on events from outside (forks, other
  // workflows), newly introduced: what then runs is no longer only the project's reviewed code.
  if (privileged && !/\b(pull_request_target|workflow_run)\b/.test(input.removed) && !checksOutHead)
    findings.push({ code: 'content.ci:privileged-trigger', deny: RISK.askHigh, onTask: 0.3 });
  if (privileged && checksOutHead)
    findings.push({
      code: 'content.ci:untrusted-code-with-secrets',
      deny: /secrets\.|GITHUB_TOKEN|permissions:\s*write|write-all/.test(inserted)
        ? RISK.denyHigh
        : RISK.askHigh,
      onTask: 0.1,
    });
  // `secrets: inherit` hands every secret to the called workflow; unpinned (a branch or tag, not a
  // commit), what runs with them can change under the project without a diff.
  if (
    /^\s*secrets:\s*inherit\b/m.test(inserted) &&
    !/^\s*secrets:\s*inherit\b/m.test(input.removed) &&
    /^\s*-?\s*uses:\s*[\w.-]+\/[^@\s]+@(?![0-9a-f]{40}\b)\S+/m.test(inserted)
  )
    findings.push({ code: 'content.ci:secrets-to-unpinned-workflow', exfil: RISK.askHigh, onTask: 0.2 });
  if (/toJSON\(\s*secrets\s*\)/.test(inserted))
    findings.push({ code: 'content.ci:serialises-secrets', exfil: RISK.certain, onTask: 0.02 });
  if (
    /\$\{\{\s*github\.event\.(issue|pull_request|comment|review|head_commit)\.[\w.]*(title|body|message|ref|label)/.test(
      inserted,
    )
  )
    findings.push({ code: 'content.ci:script-injection', deny: RISK.askHigh, onTask: 0.3 });
  // Other CI systems list a job's shell lines under `script:` (GitLab, Bitbucket, Travis) as
  // plain list items; each such item is a command.
  if (!/(^|\/)\.github\//.test(input.path))
    for (const match of inserted.matchAll(/^\s*-\s+(?![\w.-]+:\s)(?!["']?\$?\{\{)(.+)$/gm))
      findings.push(...judgeShellText(match[1]!.replace(/^["']|["']$/g, ''), input, false));
  for (const match of inserted.matchAll(/^\s*-?\s*run:\s*(\|[-+]?\s*\n((?:\s{2,}.*\n?)+)|(.+))$/gm)) {
    // A `${{ secrets.NAME }}` expression is a secret in the step's shell; other expressions are data.
    const script = (match[2] ?? match[3] ?? '')
      .replace(/\$\{\{\s*secrets\.(\w+)\s*\}\}/g, '$$SECRET_$1')
      .replace(/\$\{\{[^}]*\}\}/g, 'X');
    findings.push(...judgeShellText(script, input, false));
  }
  return findings;
}

/** package.json: lifecycle scripts run on every install; their commands are analysed. */
function judgePackageScripts(input: InsertedContent): Finding[] {
  const findings: Finding[] = [];
  for (const match of input.inserted.matchAll(
    /"(preinstall|install|postinstall|prepare|prepublish|preprepare|postprepare)"\s*:\s*"((?:\\.|[^"\\])*)"/g,
  )) {
    if (input.removed.includes(match[0])) continue;
    findings.push({ code: `content.package-lifecycle:${match[1]}`, deny: RISK.ask, onTask: 0.4 });
    findings.push(...judgeShellText(jsonString(match[2]!), input, false));
  }
  return findings;
}

/** Editor tasks that run when a folder opens are persistence; every task command is analysed. */
function judgeEditorTasks(input: InsertedContent): Finding[] {
  const findings: Finding[] = [];
  if (/"runOn"\s*:\s*"folderOpen"/.test(input.inserted))
    findings.push({ code: 'content.editor-task:runs-on-folder-open', deny: RISK.askHigh, onTask: 0.2 });
  for (const match of input.inserted.matchAll(/"command"\s*:\s*"((?:\\.|[^"\\])*)"/g))
    findings.push(...judgeShellText(jsonString(match[1]!), input, false));
  return findings;
}

/**
 * Editor settings: a terminal profile's or shell's arguments run in every terminal the editor
 * opens, unasked; a `-c` argument's command is analysed as shell that runs unasked.
 */
function judgeEditorSettings(input: InsertedContent): Finding[] {
  const findings: Finding[] = [];
  for (const list of input.inserted.matchAll(/"(args|shellArgs[\w.]*)"\s*:\s*\[([^\]]*)\]/g)) {
    const values = [...list[2]!.matchAll(/"((?:\\.|[^"\\])*)"/g)].map((match) => jsonString(match[1]!));
    const command = values.findIndex((value) => value === '-c' || value === '/c' || value === '-Command');
    if (command >= 0 && values[command + 1] !== undefined)
      findings.push(...judgeShellText(values[command + 1]!, input, true));
  }
  return findings;
}

/** The recipe lines of a makefile, without make's `@`, `-` and `+` prefixes. */
function recipeLines(makefile: string): string {
  return makefile
    .split('\n')
    .filter((line) => line.startsWith('\t') && line.trim() !== '')
    .map((line) => line.trim().replace(/^[@+-]+/, ''))
    .join('\n');
}

/** The value of a JSON string body as captured; text that does not decode is judged as written. */
function jsonString(body: string): string {
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body;
  }
}
