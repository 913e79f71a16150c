import { TEST_FILE } from '../check-weakening.js';
import type { Finding } from '../finding.js';
import { RISK } from '../risk-scale.js';

/**
 * Issue 27, "changes judged by their consequence": a file's role says what a change to it can do
 * beyond the file. A pipeline runs with the project's secrets, a build or install script runs on
 * every machine that builds, a manifest decides what code is fetched, a container or
 * infrastructure spec decides what is exposed, a migration what data survives, authentication
 * code who may do what, a test or check configuration what is verified. Ordinary code has no
 * such reach: its edits stay with the content checks alone.
 */
export type FileRole =
  | 'ci-pipeline'
  | 'build-script'
  | 'package-manifest'
  | 'container-spec'
  | 'infrastructure'
  | 'migration'
  | 'access-control'
  | 'test'
  | 'check-config'
  | 'secrets-config';

/** Path patterns per role, first match wins (a test of auth code is a test). */
const ROLES: readonly (readonly [FileRole, RegExp])[] = [
  [
    'ci-pipeline',
    /(^|\/)\.github\/workflows\/|(^|\/)\.gitlab-ci\.ya?ml$|(^|\/)\.circleci\/|(^|\/)Jenkinsfile$|(^|\/)azure-pipelines\.ya?ml$|(^|\/)\.buildkite\/|(^|\/)bitbucket-pipelines\.ya?ml$|(^|\/)\.travis\.ya?ml$|(^|\/)\.drone\.ya?ml$|(^|\/)cloudbuild\.ya?ml$|(^|\/)buildspec\.ya?ml$/i,
  ],
  [
    'check-config',
    /(^|\/)(conftest\.py|pytest\.ini|tox\.ini|noxfile\.py|\.coveragerc|codecov\.ya?ml|\.nycrc(\.json)?|karma\.conf\.[cm]?js|\.pre-commit-config\.ya?ml|\.golangci\.ya?ml|\.rubocop\.yml|\.flake8|\.pylintrc|ruff\.toml|\.eslintrc(\.[a-z]+)?|biome\.jsonc?|\.mocharc\.[a-z]+)$|(^|\/)(jest|vitest|playwright|cypress|eslint)\.config\.[cm]?[jt]s$|(^|\/)phpunit\.xml(\.dist)?$/i,
  ],
  ['test', TEST_FILE],
  [
    'migration',
    /(^|\/)(migrations?|migrate|alembic\/versions|flyway|liquibase|changelogs?|schema_migrations)\/|(^|\/)db\/[^/]*\.sql$|\.prisma$|(^|\/)\d{8,14}[_-][\w-]+\.(sql|rb|py|ts|js)$/i,
  ],
  [
    'package-manifest',
    /(^|\/)(package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|pyproject\.toml|poetry\.lock|uv\.lock|Pipfile(\.lock)?|(requirements|constraints)[\w.-]*\.(txt|in)|setup\.cfg|Cargo\.(toml|lock)|go\.(mod|sum)|Gemfile(\.lock)?|[\w.-]+\.gemspec|pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|gradle\.properties|composer\.(json|lock)|[\w.-]+\.csproj|Directory\.Packages\.props|packages\.config|nuget\.config|mix\.(exs|lock)|pubspec\.(yaml|lock)|flake\.(nix|lock)|\.npmrc|\.yarnrc(\.yml)?|pip\.conf)$/i,
  ],
  [
    'build-script',
    /(^|\/)(setup\.py|build\.rs|Makefile|GNUmakefile|CMakeLists\.txt|[\w.-]+\.mk|Rakefile|gulpfile\.[cm]?js|Gruntfile\.js|webpack\.config\.[cm]?[jt]s|vite\.config\.[cm]?[jt]s|rollup\.config\.[cm]?[jt]s|esbuild\.config\.[cm]?[jt]s|justfile|Taskfile\.ya?ml|bootstrap\.sh|install\.sh|build\.sh|release\.sh|deploy\.sh|postinstall\.[cm]?js)$|(^|\/)scripts?\/[^/]*\b(build|install|setup|release|deploy|publish|bootstrap|postinstall|prepare)\b[^/]*$/i,
  ],
  [
    'container-spec',
    /(^|\/)(Dockerfile|Containerfile)([.-][\w.-]+)?$|\.dockerfile$|(^|\/)(docker-)?compose(\.[\w-]+)?\.ya?ml$|(^|\/)(k8s|kubernetes|kube|helm|charts|manifests|kustomize|overlays|argocd)\/|(^|\/)(Chart|values(\.[\w-]+)?|kustomization)\.ya?ml$|(^|\/)skaffold\.ya?ml$/i,
  ],
  [
    'infrastructure',
    /\.(tf|tfvars|hcl|bicep)$|(^|\/)(infra|infrastructure|terraform|pulumi|cdk|cloudformation|ansible|deploy|deployment|ops|policies|iam)\/|(^|\/)(Pulumi(\.[\w-]+)?\.ya?ml|serverless\.ya?ml|template\.ya?ml|samconfig\.toml|fly\.toml|vercel\.json|netlify\.toml|app\.ya?ml|nginx\.conf|httpd\.conf|\.htaccess|Caddyfile|haproxy\.cfg|firebase\.json|(firestore|storage|database)\.rules(\.json)?)$|\.rules$/i,
  ],
  [
    'access-control',
    /(^|\/)[^/]*(auth|authn|authz|login|logout|session|permission|acl|rbac|policy|policies|guard|crypto|security|jwt|oauth|oidc|saml|sso|token|password|passwd|credential|csrf|cors)[^/]*(\/|\.[a-z]+$)/i,
  ],
  [
    'secrets-config',
    /(^|\/)\.env(\.[\w-]+)?$|(^|\/)[^/]*secrets?[^/]*\.(json|ya?ml|toml|ini|env|properties)$|(^|\/)(config|settings)\/[^/]*(prod|production)[^/]*$|(^|\/)[^/]*(prod|production)\.(json|ya?ml|toml|ini|properties|py|[cm]?js|ts)$/i,
  ],
];

/**
 * Code that decides access, checks input, escapes output, talks to a database or a shell, or holds
 * a security setting, wherever the file lives (`app/db.py`, `src/server.ts`): the words an edit
 * changes say the region is access control even when the path does not.
 */
const SECURITY_REGION =
  /(?<![a-z0-9])(auth\w*|jwt|authn|authz|oauth\w*|oidc|saml|mfa|totp|otp|2fa|webhook\w*|sig|signature\w*|audience|issuer|claims?|scopes?|login\w*|permission\w*|role|roles|admin\w*|token\w*|password\w*|secret\w*|csrf|cors|origin|session\w*|cookie\w*|sanitiz\w*|escape\w*|validat\w*|verify\w*|signature|encrypt\w*|decrypt\w*|hash\w*|bcrypt|argon2|execute|query|exec|eval|spawn|subprocess|innerHTML|allow\w*|deny|forbid\w*|limit\w*|throttle\w*|ssl|tls|secure|httpOnly|sameSite|header\w*|policy|policies|audit\w*|retention|mode|chmod|permissions?|acl|keychain|accessible\w*)(?![a-z0-9])/i;

/** Identifiers split into words (`endpointSecret`, `CSRFMiddleware`, `sig_header` → `endpoint secret`, `csrf middleware`, `sig header`). */
function identifierWords(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/_/g, ' ')
    .toLowerCase();
}

/** The security words of a text, for telling which an edit takes away. */
function securityWords(text: string): Set<string> {
  // What a log line names is reported, not enforced: a secret taken out of a log protects.
  const enforced = text
    .split('\n')
    .filter(
      (line) => !/\b(logger|logging|log|console|print|println|printf|puts|fmt\.Print\w*)\s*[.(]/.test(line),
    )
    .join('\n');
  const words = identifierWords(withoutSwitchesOff(withoutComments(enforced)));
  return new Set(
    [...words.matchAll(new RegExp(SECURITY_REGION.source, 'gi'))].map((match) => match[1]!.toLowerCase()),
  );
}

/**
 * Code without its comments: a line commented out (`// app.UseAuthorization();`) no longer runs,
 * so what it named is gone from the code even though its words are still in the file.
 */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\/|<!--[\s\S]*?-->/g, ' ')
    .replace(/(^|\s)(\/\/|#(?![[!])|--(?=\s))[^\n]*/g, '$1');
}

/**
 * Qualifiers that let a request past a check without meeting it (`optional = true`,
 * `[AllowAnonymous]`, `.permitAll()`, `skip_before_action`, `@csrf_exempt`), read as words of the
 * code so that every framework's spelling counts. Added to access-control code, they weaken it
 * whatever the task says, as a removed check does.
 */
const BYPASS_WORD =
  /\b(optional|optionally|anonymous|permit all|allow all|allow any|allow anonymous|unauthenticated|insecure|bypass\w*|skip\w*|exempt\w*|no auth|no verify|disable\w*|ignore\w*|trust all)\b/g;

/** Conditions that read the environment (`if (process.env.X …)`, `if settings.DEBUG`, `unless ENV[…]`). */
function environmentConditions(text: string): number {
  return [
    ...withoutComments(text).matchAll(
      /\b(if|unless|when|&&|\|\||and|or)\b[^\n]{0,80}?\b(process\.env\.\w+|NODE_ENV|RAILS_ENV|APP_ENV|os\.environ|os\.getenv|ENV\[|Environment\.GetEnvironmentVariable|settings\.DEBUG|app\.debug|isProduction|isDev\w*)/g,
    ),
  ].length;
}

function bypassCount(text: string): number {
  return [...identifierWords(withoutComments(text)).matchAll(BYPASS_WORD)].length;
}

/** The role of an edit's region when its file has none: access control, for security code. */
function changedRegionRole(input: {
  inserted: string;
  removed: string;
  whole: boolean;
}): FileRole | undefined {
  if (input.whole || input.removed.trim() === '') return undefined;
  const removed = withoutSwitchesOff(input.removed);
  // A refusal removed (a condition that ends the request early, whatever it checks) is a guard
  // removed, even where no word says what it guarded.
  const refusalsRemoved = count(removed, EARLY_REFUSAL) > count(input.inserted, EARLY_REFUSAL);
  return SECURITY_REGION.test(identifierWords(removed)) || refusalsRemoved ? 'access-control' : undefined;
}

const NOT_A_CALL = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'function',
  'return',
  'super',
  'typeof',
  'await',
  'elif',
  'print',
]);

/**
 * A call access-control code makes before the edit and not after, that the task does not name
 * (`rename getUser` names `getUser`).
 */
function droppedCall(inserted: string, removed: string, task: string): string | undefined {
  const calls = (text: string) =>
    new Set([...withoutComments(text).matchAll(/([A-Za-z_$][\w$]*)\s*\(/g)].map((match) => match[1]!));
  const after = calls(inserted);
  const taskWords = identifierWords(task);
  for (const name of calls(removed)) {
    if (after.has(name) || NOT_A_CALL.has(name)) continue;
    const words = identifierWords(name)
      .split(/\s+/)
      .filter((word) => word.length >= 3);
    if (words.some((word) => new RegExp(`\\b${word.slice(0, 5)}`).test(taskWords))) continue;
    return name;
  }
  return undefined;
}

/** A condition that ends the call early by refusing: `if …: raise/abort`, `if (…) throw`, `… return 4xx`. */
const EARLY_REFUSAL =
  /\b(if|unless|guard)\b[^\n]{0,160}(\n[ \t]+)?[^\n]{0,40}\b(raise|throw|abort|reject|deny|halt|return\s+(None|null|nil|false|False|res\.status|reply\.code|http\.Error|\d{3}))\b/g;

function count(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].length;
}

/**
 * Text without the switches that turn a protection off (`verify=False`, `secure: false`): an edit
 * that removes one restores the protection, so the switch is not a guard being removed.
 */
function withoutSwitchesOff(text: string): string {
  return text.replace(
    /\b\w{0,30}(verify|secure|ssl|tls|csrf|validat|check|protect|encrypt)\w{0,30}\s*[:=]\s*["']?(False|false|0|off|no)\b/gi,
    '',
  );
}

/** Example and template files are documentation of a role, not the role itself. */
const EXAMPLE_FILE = /\.(example|sample|template|dist|tmpl)(\.[a-z]+)?$|(^|\/)(examples?|samples?|docs?)\//i;

export function fileRole(path: string): FileRole | undefined {
  if (EXAMPLE_FILE.test(path)) return undefined;
  for (const [role, pattern] of ROLES) if (pattern.test(path)) return role;
  return undefined;
}

/**
 * What a task says when it asks for a change in that role. A change in a sensitive role is the
 * task's only when the task names the role, or the file itself.
 */
const ROLE_IN_TASK: Readonly<Record<FileRole, RegExp>> = {
  'ci-pipeline': /\b(ci|workflows?|pipelines?|github actions?|gitlab|circleci|jenkins|actions?|builds?)\b/i,
  'build-script':
    /\b(build(s|ing)?|install(er|s|ing)?|setup|make(file)?|scripts?|bundl(e|er|ing)|compil(e|er|ing)|release)\b/i,
  'package-manifest':
    /\b(dependenc(y|ies)|packages?|librar(y|ies)|install|upgrade|bump|update|version|lock ?file|manifest|deps|scripts?|modules?|crate|gem)\b/i,
  'container-spec':
    /\b(docker(file)?|containers?|images?|compose|kubernetes|k8s|helm|pods?|deployments?|replicas?|scale|charts?|manifests?|services?|probes?|resources?|memory|cpu)\b/i,
  infrastructure:
    /\b(terraform|infra(structure)?|cloud|aws|gcp|azure|servers?|instances?|buckets?|nginx|proxy|load ?balancer|dns|domains?|cdn|firebase|firestore|rules|memory|cpu|size|database)\b/i,
  migration: /\b(migrations?|schema|columns?|tables?|models?|index(es)?|constraints?|database|db)\b/i,
  'access-control':
    /\b(auth\w*|log ?in|login|log ?out|logged (in|out)|logs (in|out)|sign[- ]?(in|up|out)|signed (in|up|out)|sessions?|permissions?|roles?|tokens?|jwt|oauth|passwords?|crypto\w*|encrypt\w*|hash(ing)?|access|admin|security|cors|csrf|guards?|polic(y|ies))\b/i,
  test: /\b(tests?|specs?|assertions?|coverage|fixtures?|test suite|mocks?)\b/i,
  'check-config':
    /\b(tests?|lint(er|ing)?|coverage|ci|checks?|pre-commit|type-?check(ing)?|format(ter|ting)?)\b/i,
  'secrets-config':
    /\b(env(ironment)?|\.env|config(uration)?|settings|secrets?|variables?|production|prod)\b/i,
};

function basenameWords(path: string): string[] {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  return base.split(/[^A-Za-z0-9]+/).filter((word) => word.length >= 4);
}

function taskNamesFile(task: string, path: string): boolean {
  const lower = task.toLowerCase();
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (base.length >= 4 && lower.includes(base)) return true;
  return basenameWords(path).some((word) =>
    new RegExp(`\\b${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(task),
  );
}

/**
 * Whether an Edit only adds: every token it replaces is kept, in order, in what it puts there
 * (a line, an element of a list, a condition appended).
 */
function onlyAdds(inserted: string, removed: string): boolean {
  return addedTokens(inserted, removed) !== undefined;
}

/** The tokens an Edit adds when it only adds; undefined when it also removes or changes some. */
function addedTokens(inserted: string, removed: string): string[] | undefined {
  const before = removed.match(TOKEN) ?? [];
  const after = inserted.match(TOKEN) ?? [];
  const added: string[] = [];
  let at = 0;
  for (const token of after) {
    if (at < before.length && token === before[at]) at++;
    else added.push(token);
  }
  return at === before.length ? added : undefined;
}

/**
 * Tokens that change a condition or an outcome: logic, negation, comparison, a boolean literal,
 * an early return. An addition to access-control code with none of these (an argument, an
 * element of a list, a log line) does not change who passes; one with them may (`|| isGuest`).
 */
const CONDITION_TOKEN =
  /^(\|\||\||&&|&|!|\?|or|and|not|unless|else|elif|elsif|if|when|return|true|True|TRUE|false|False|nil|null|None|=|<|>|catch|except|rescue)$/;

/**
 * Statements that destroy data, and the object each names. An `UPDATE … SET` overwrites what each
 * row held, so without a `WHERE` it destroys a column's values in every row, like a `DELETE`.
 */
const DESTRUCTIVE_STATEMENT =
  /\b(?:drop\s+(?:table|view|schema|database|collection)(?:\s+if\s+exists)?|truncate(?:\s+table)?|delete\s+from|update(?=\s+(?:only\s+)?[\w."]+\s+set\b)(?:\s+only)?|drop\s+column(?:\s+if\s+exists)?|drop_table|remove_column|drop_column|dropTable|dropColumn)\s*\(?\s*[:"'`[]?([\w.]+)/gi;

/** The destructive statements of a text that are not limited by a `WHERE`. */
function unconditionalStatements(text: string): string[] {
  return [...text.matchAll(DESTRUCTIVE_STATEMENT)]
    .filter(
      (match) =>
        !/^(delete|update)/.test(match[0].toLowerCase()) ||
        !/^[^;]*\bwhere\b/i.test(text.slice(match.index! + match[0].length)),
    )
    .map((match) => match[0].toLowerCase().replace(/\s+/g, ' '));
}

/** What a task says when it asks for data or structure to go. */
const DESTRUCTION_ASKED =
  /\b(drop\w*|delet\w*|remov\w*|truncat\w*|clear\w*|wipe\w*|purg\w*|reset\w*|clean\w*|empty\w*|get rid|deprecat\w*|retir\w*|consolidat\w*|merg\w*|renam\w*|replac\w*|split\w*|squash\w*|rebuild\w*|recreat\w*|prune\w*|archiv\w*)\b/i;

/**
 * A migration's destructive statements reach only what the task names: a drop or truncate of
 * another table is data loss nobody asked for (principle 8 limits the licence to the named target).
 */
export function destroysBeyondTask(inserted: string, task: string, removed = ''): string | undefined {
  // A statement the edit keeps as it was is not the edit's (the same unconditional delete before).
  const kept = new Set(unconditionalStatements(removed));
  for (const match of inserted.matchAll(DESTRUCTIVE_STATEMENT)) {
    if (kept.has(match[0].toLowerCase().replace(/\s+/g, ' '))) continue;
    const target = match[1]!.split('.').pop()!;
    const statement = match[0].toLowerCase();
    // `DELETE FROM t WHERE …` removes chosen rows, and `UPDATE t SET … WHERE …` rewrites them, which
    // is what data migrations do.
    if (
      /^(delete|update)/.test(statement) &&
      /^[^;]*\bwhere\b/i.test(inserted.slice(match.index! + match[0].length))
    )
      continue;
    // The task licenses destroying what it names only when it asks for destruction: "add the
    // orders index" names the table, not its truncation.
    if (!DESTRUCTION_ASKED.test(task)) return target;
    if (!new RegExp(`\\b${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(task)) return target;
  }
  return undefined;
}

/** Tokens of code or configuration: strings, numbers (with units and versions), words, symbols. */
const TOKEN = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[~^<>=]*\d[\w.]*|[A-Za-z_$][\w$-]*|\S/g;

type TokenKind = 'string' | 'number' | 'word' | 'symbol';

function tokenKind(token: string): TokenKind {
  if (/^["']/.test(token)) return 'string';
  if (/^[~^<>=]*\d/.test(token)) return 'number';
  if (/^[A-Za-z_$]/.test(token)) return 'word';
  return 'symbol';
}

/** The literal inside a token, for comparing kinds of value (`'15m'` and `'10m'` are durations). */
function valueShape(token: string): string {
  return token
    .replace(/^["']|["']$/g, '')
    .replace(/\d+/g, '0')
    .replace(/[A-Za-z]+/g, 'a');
}

/**
 * A change that only puts one value where another of the same shape was (`replicaCount: 1` → `3`,
 * `"^1.3.0"` → `"^1.3.1"`, `'15m'` → `'10m'`): the structure is untouched, so what the change can
 * do is what the value does, and the content checks read values that matter (addresses, ports,
 * thresholds, sources). A value of another shape (a version become a git URL) is not this.
 */
function onlyReplacesValues(inserted: string, removed: string): boolean {
  const before = removed.match(TOKEN) ?? [];
  const after = inserted.match(TOKEN) ?? [];
  if (before.length === 0 || before.length !== after.length) return false;
  let changed = 0;
  for (let index = 0; index < before.length; index++) {
    const old = before[index]!;
    const value = after[index]!;
    if (old === value) continue;
    const kind = tokenKind(old);
    if (kind !== tokenKind(value) || kind === 'symbol' || kind === 'word') return false;
    if (valueShape(old) !== valueShape(value)) return false;
    changed++;
  }
  return changed > 0;
}

/**
 * Words of a count of people who must agree before a change lands (`required_approving_review_count`,
 * `approvals_before_merge`, `min_reviewers`): the floor of the four-eyes check.
 */
const REVIEW_FLOOR_WORDS = [
  'approving',
  'approval',
  'approvals',
  'approvers',
  'review',
  'reviews',
  'reviewers',
  'signoffs',
  'quorum',
];

/** Words of a setting that is a floor of strength: a minimum, a length, bits, rounds, a retention. */
const MINIMUM_WORD = new Set([
  'min',
  'minimum',
  'length',
  'len',
  'bits',
  'rounds',
  'retention',
  'days',
  'strength',
  ...REVIEW_FLOOR_WORDS,
]);

/**
 * A security value made weaker: a minimum (length, version, bits, rounds, retention) lowered, or a
 * file mode that lets more people in (`0o600` → `0o644`). Other values (a lifetime, a limit) are
 * judged by their own checks in `exposure-settings.ts`.
 */
function weakensSecurityValue(inserted: string, removed: string): boolean {
  // Read as words so every spelling counts (`min_length`, `minLength`, `PASSWORD_MIN_LEN`); a
  // maximum lowered is stricter, not weaker.
  const minimums = (text: string) =>
    [...text.matchAll(/\b([A-Za-z_][\w]{0,60})["']?\s*[:=]\s*(\d[\d_]*)\b/g)]
      .filter((match) => {
        const words = identifierWords(match[1]!).split(/\s+/);
        return (
          words.some((word) => MINIMUM_WORD.has(word)) && !words.some((word) => /^max(imum)?$/.test(word))
        );
      })
      .map((match) => [match[1]!.toLowerCase(), Number(match[2]!.replace(/_/g, ''))] as const);
  const before = new Map(minimums(removed));
  if (minimums(inserted).some(([key, value]) => (before.get(key) ?? value) > value)) return true;
  const versions = (text: string) =>
    [...text.matchAll(/\bTLS_?v?1[._]?([0-3])\b|\bVersionTLS1([0-3])\b/gi)].map((m) => Number(m[1] ?? m[2]));
  const oldest = (list: number[]) => (list.length === 0 ? undefined : Math.min(...list));
  const [was, now] = [oldest(versions(removed)), oldest(versions(inserted))];
  if (was !== undefined && now !== undefined && now < was) return true;
  const modes = (text: string) =>
    [...text.matchAll(/\b0o?([0-7]{3})\b/g)].map((match) => Number.parseInt(match[1]!, 8));
  const wasModes = modes(removed);
  return modes(inserted).some(
    (mode) => wasModes.length > 0 && wasModes.every((old) => (mode & 0o077 & ~old) !== 0),
  );
}

/** Words of a floor that protects whatever the role: what is kept, how strong a key or hash is. */
const PROTECTION_FLOOR_WORD = new Set([
  'retention',
  'backup',
  'backups',
  'bits',
  'rounds',
  'iterations',
  'strength',
  ...REVIEW_FLOOR_WORDS,
]);

/** A numeric setting named by a protection floor, lowered (`backup_retention_period = 14` → `0`). */
function lowersProtectionFloor(inserted: string, removed: string, task: string): boolean {
  const floors = (text: string) =>
    new Map(
      [...text.matchAll(/\b([A-Za-z_][\w]{0,60})["']?\s*[:=]\s*(\d[\d_]*)\b/g)]
        .filter((match) =>
          identifierWords(match[1]!)
            .split(/\s+/)
            .some((word) => PROTECTION_FLOOR_WORD.has(word)),
        )
        .map((match) => [match[1]!.toLowerCase(), Number(match[2]!.replace(/_/g, ''))] as const),
    );
  const before = floors(removed);
  // Fewer reviewers, when the task asks about reviews, is the team's call; none is the check gone.
  const reviewsAsked = /\b(review|approv)\w*/i.test(task);
  return [...floors(inserted)].some(
    ([key, value]) =>
      (before.get(key) ?? value) > value &&
      !(
        reviewsAsked &&
        value > 0 &&
        REVIEW_FLOOR_WORDS.some((word) => identifierWords(key).split(/\s+/).includes(word))
      ),
  );
}

/** Roles where writing a whole file is creating configuration whose content checks apply. */
const WHOLE_FILE_CLASSIFIED: ReadonlySet<FileRole> = new Set([
  'test',
  'check-config',
  'package-manifest',
  'container-spec',
  'infrastructure',
]);

/**
 * What decides access or verifies behaviour: conditions, checks, assertions, refusals. An edit of
 * access-control code or a test that removes none of these changes how the code works, not who
 * may use it or what is verified; the content checks read what it adds.
 */
const GUARD =
  /\b(if|unless|when|require\w*|verify\w*|check\w*|assert\w*|expect|should|authori[sz]\w*|authenticat\w*|permi\w*|deny|denied|forbid\w*|raise|throw|abort|reject\w*|guard\w*|validat\w*|csrf|allow\w*|roles?|admin\w*|login_required|is_?authenticated|401|403)\b/i;

/** Specifications that fetch a dependency from outside its registry: a git URL, a fork, a path. */
const DEPENDENCY_OUTSIDE_REGISTRY =
  /"(github|gitlab|bitbucket):[\w.-]+\/[\w.-]+|["'\s](git\+(https?|ssh|file):|git:\/\/)|"[\w-]+\/[\w.-]+#[\w./-]+"|\bgit\s*=\s*["'](https?|ssh|git):|@\s*git\+|"(file|link):|\bpath\s*=\s*["']\.\.\//;

/** `host:owner/repo` and `host/owner/repo` references to a code host, and CI's `uses: owner/repo`. */
const HOSTED_SOURCE =
  /\b(?:github|gitlab|bitbucket|codeberg|sr\.ht)(?:\.com|\.org)?[:/]~?([\w.-]+)\/([\w.-]+?)(?:\.git)?(?=[/@#?"'\s]|$)|\buses:\s*["']?([\w.-]+)\/([\w.-]+)/gim;

/**
 * A dependency fetched from the same project name under another owner: a fork or a look-alike
 * (`github:NixOS/nixpkgs` → `github:n1xos-mirror/nixpkgs`, `uses: actions/checkout` →
 * `uses: actlons/checkout`). The owner is who publishes the code the build will run; changing it
 * is a change of trust, whatever the version says.
 */
export function sourceOwnerChanged(inserted: string, removed: string): boolean {
  if (imagePublisherChanged(inserted, removed)) return true;
  const owners = (text: string) => {
    const byRepo = new Map<string, Set<string>>();
    for (const match of text.matchAll(HOSTED_SOURCE)) {
      const owner = (match[1] ?? match[3])!.toLowerCase();
      const repo = (match[2] ?? match[4])!.toLowerCase();
      byRepo.set(repo, (byRepo.get(repo) ?? new Set()).add(owner));
    }
    return byRepo;
  };
  const before = owners(removed);
  for (const [repo, now] of owners(inserted)) {
    const was = before.get(repo);
    if (was !== undefined && [...now].some((owner) => !was.has(owner))) return true;
  }
  return false;
}

/** A container image named as a base (`FROM …`) or a service's image (`image: …`). */
const IMAGE_REFERENCE = /^\s*FROM\s+(?:--platform=\S+\s+)?([^\s]+)|^\s*-?\s*image:\s*["']?([^\s"']+)/gim;

/**
 * Who publishes an image: its registry and namespace (`ghcr.io/acme`, `bitnami`); an image without
 * a namespace on Docker Hub is an official one (`library`). The tag and digest are not the
 * publisher.
 */
function imagePublisher(reference: string): string {
  const name = reference.replace(/@sha256:[0-9a-f]+$/i, '').replace(/:[\w.-]+$/, '');
  const parts = name.split('/');
  if (parts.length === 1) return 'docker.io/library';
  const registry = /[.:]/.test(parts[0]!) || parts[0] === 'localhost' ? parts.shift()! : 'docker.io';
  parts.pop();
  return `${registry}/${parts.join('/')}`.toLowerCase();
}

/**
 * A base or service image replaced by one from another publisher (`FROM node:20` →
 * `FROM nodejsfan/node-alpine`): what the build runs on is now someone else's code. A stage name
 * (`FROM build`) and a variable (`FROM ${BASE}`) name no publisher.
 */
function imagePublisherChanged(inserted: string, removed: string): boolean {
  const publishers = (text: string) =>
    new Set(
      [...text.matchAll(IMAGE_REFERENCE)]
        .map((match) => (match[1] ?? match[2])!)
        .filter((reference) => !reference.includes('$') && /[/:@]/.test(reference))
        .map(imagePublisher),
    );
  const before = publishers(removed);
  if (before.size === 0) return false;
  return [...publishers(inserted)].some((publisher) => !before.has(publisher));
}

/** Configuration whose additions the exposure checks read (addresses, ports, public flags, roles). */
const ADDITIONS_CLASSIFIED: ReadonlySet<FileRole> = new Set([
  // A migration's additions are read by the destructive-statement check above and the exposure
  // checks (grants, row security): a column added to an index is classified.
  'migration',
  'package-manifest',
  'container-spec',
  'infrastructure',
]);

/** What a content judgement reads of one edit: the file, what it puts and takes away, the task. */
export interface EditContent {
  readonly path: string;
  readonly inserted: string;
  readonly removed: string;
  readonly task: string;
  /** A whole file written (Write), not a span replaced (Edit). */
  readonly whole: boolean;
}

/**
 * The role judgement: a change in a sensitive role is routine when the task asks for a change
 * there (names the role or the file), or when it only adds tests. Otherwise the gate has not
 * classified it, and a change it has not classified in a sensitive role is asked. The content
 * checks (weakened checks, widened exposure, new sinks, destructive statements) run besides and
 * decide on their own.
 */
export function judgeFileRole(input: EditContent): Finding[] {
  const role = fileRole(input.path) ?? changedRegionRole(input);
  if (role === undefined) return [];
  if (role === 'package-manifest') {
    // A manifest is read by its own checks (sources here, lifecycle scripts and registries in
    // inserted-content.ts): its changes are classified by them.
    const findings: Finding[] = [];
    if (DEPENDENCY_OUTSIDE_REGISTRY.test(input.inserted) && !DEPENDENCY_OUTSIDE_REGISTRY.test(input.removed))
      findings.push({ code: 'content.dependency-outside-registry', deny: RISK.askHigh, onTask: 0.3 });
    if (sourceOwnerChanged(input.inserted, input.removed))
      findings.push({ code: 'content.dependency-owner-changed', deny: RISK.askHigh, onTask: 0.3 });
    return findings;
  }
  if (role === 'migration') {
    // A declarative schema (Prisma's) drops the table of a model it no longer has.
    const dropped = [...input.removed.matchAll(/\bmodel\s+(\w+)\s*\{/g)]
      .map((match) => match[1]!)
      .filter((model) => !new RegExp(`\\bmodel\\s+${model}\\s*\\{`).test(input.inserted));
    const target =
      dropped.find((model) => !new RegExp(`\\b${model}\\b`, 'i').test(input.task)) ??
      destroysBeyondTask(input.inserted, input.task);
    if (target !== undefined)
      return [
        {
          code: `content.migration-destroys-unnamed:${target.slice(0, 60)}`,
          destructive: RISK.askHigh,
          onTask: 0.3,
        },
      ];
  }
  if (role === 'test' && onlyAdds(input.inserted, input.removed)) return [];
  const after = securityWords(input.inserted);
  const takesAway = [...securityWords(input.removed)].some((word) => !after.has(word));
  const weakensValue = weakensSecurityValue(input.inserted, input.removed);
  // A check made to depend on where the code runs (`NODE_ENV === 'production' && !verify(…)`):
  // wherever the variable is not set as expected, the check is gone.
  const bypasses =
    !input.whole &&
    (bypassCount(input.inserted) > bypassCount(input.removed) ||
      environmentConditions(input.inserted) > environmentConditions(input.removed));
  // Access control that loses a security word, a strength or a call is asked whatever the task
  // says: a task that mentions tokens or admins does not ask for their checks to go, and a call
  // dropped from access control (`session.regenerate`) may be the step that made it hold.
  const dropsCall =
    role === 'access-control' &&
    !input.whole &&
    droppedCall(input.inserted, input.removed, input.task) !== undefined;
  const weakensAccess = role === 'access-control' && (takesAway || weakensValue || bypasses || dropsCall);
  if (
    !input.whole &&
    (role === 'test' || role === 'access-control') &&
    !GUARD.test(withoutSwitchesOff(input.removed)) &&
    !GUARD.test(identifierWords(withoutSwitchesOff(input.removed))) &&
    !(role === 'access-control' && (takesAway || weakensValue || bypasses))
  )
    return [];
  if (input.whole && WHOLE_FILE_CLASSIFIED.has(role)) return [];
  if (!input.whole && !weakensValue && onlyReplacesValues(input.inserted, input.removed)) return [];
  if (weakensAccess)
    return [{ code: 'content.access-control-weakened', uncertain: true, deny: RISK.ask, onTask: 0.4 }];
  // Backups kept, key bits, hashing rounds: a floor of protection lowered in any sensitive role is
  // asked whatever the task says, as in access control ("cut costs" does not ask for no backups).
  if (weakensValue && lowersProtectionFloor(input.inserted, input.removed, input.task))
    return [{ code: 'content.protection-floor-lowered', uncertain: true, deny: RISK.ask, onTask: 0.4 }];
  // Access-control code that only gains tokens changing no condition (`-strip` added to a
  // command's arguments): who passes is unchanged, and the content checks read what was added.
  const added = input.whole ? undefined : addedTokens(input.inserted, input.removed);
  if (role === 'access-control' && added !== undefined && !added.some((token) => CONDITION_TOKEN.test(token)))
    return [];
  // A spec's additions are read by the exposure checks: an addition there is classified.
  if (!input.whole && ADDITIONS_CLASSIFIED.has(role) && onlyAdds(input.inserted, input.removed)) return [];
  if (ROLE_IN_TASK[role].test(input.task) || taskNamesFile(input.task, input.path)) return [];
  return [
    {
      code: `content.role-unclassified:${role}`,
      uncertain: true,
      destructive: RISK.askLow,
      onTask: 0.5,
    },
  ];
}
