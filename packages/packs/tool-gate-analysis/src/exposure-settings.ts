import { TEST_FILE } from './check-weakening.js';
import type { Finding } from './finding.js';
import { isLoopbackHost } from './loopback-host.js';
import { RISK } from './risk-scale.js';
import { isExampleFile, isSecretVariableName, secretLiteralKind } from './secret-source.js';

/**
 * Principle 5 for deployment and infrastructure files (Terraform, Kubernetes, compose, web-server
 * and database configuration, and the settings code passes to a server): an edit that opens what
 * was closed. Each kind below is a finding only when the edit introduces it, so a file that already
 * says it, and an edit that keeps it, are not judged again. All are asked: whether a change is
 * wanted depends on the deployment, which a person knows and the gate does not.
 *
 * - exposure: a network range that is the whole internet, storage readable or writable by anyone,
 *   public-access blocks switched off, a web server that serves the file system or lists
 *   directories, a database port published on every interface, a debugger reachable from the
 *   network;
 * - privilege: permission to do anything on anything (`Action: "*"` on `Resource: "*"`, every verb
 *   on every resource, `write-all`, an owner or administrator role);
 * - protection: deletion protection, final snapshots, logging, versioning, encryption and backups
 *   switched off; transport security and authentication switched off;
 * - a live secret's literal written into a file, where everyone who can read the repository reads it.
 */
const EXPOSURES: readonly [string, RegExp][] = [
  // The container runtime's socket given to a container or pod: whoever holds it starts a
  // privileged container with the host's root file system, so it is the host.
  [
    'container-runtime-socket',
    /(mountPath|path|source|target)?["']?\s*[:=]?\s*["']?\/(var\/)?run\/(docker|containerd\/containerd|crio\/crio|podman\/podman)\.sock\b/,
  ],
  // Everyone as the principal of a resource policy; a rule that grants every request
  // (`allow read, write: if true`, nginx's `allow all`).
  ['principal-everyone', /["']?Principal["']?\s*[=:]\s*(["']\*["']|\{\s*["']AWS["']\s*:\s*\[?\s*["']\*["'])/],
  // A rule whose condition is the constant true: Firebase's `if true`, nginx's `allow all`, a
  // PostgreSQL row policy `USING (true)`.
  [
    'rule-grants-everyone',
    /\ballow\s+[\w, ]+:\s*if\s+true\s*;|^\s*allow\s+all\s*;|\b(USING|WITH\s+CHECK)\s*\(\s*true\s*\)/im,
  ],
  // Row-level security, the database's own per-row access control, switched off.
  ['row-security-off', /\b(disable|no\s+force)\s+row\s+level\s+security\b/i],
  // Every port of a host opened by one rule (`from_port = 0` … `to_port = 65535`, `0-65535`,
  // every protocol): what listens on any of them is reachable, the ones nobody meant to expose too.
  [
    'every-port',
    /\b(from_?port|FromPort|fromPort|port_range_min|portRangeStart)["']?\s*[:=]\s*["']?[01]\b[\s\S]{0,160}?\b(to_?port|ToPort|toPort|port_range_max|portRangeEnd)["']?\s*[:=]\s*["']?65535\b|["'\s=][01]\s*-\s*65535\b|\b(protocol|IpProtocol|ip_protocol)["']?\s*[:=]\s*["']-1["']/,
  ],
  // An expiry taken away (`expires_at = None`, `ttl: Infinity`): a token, link or session that was
  // good for a while is good for ever.
  [
    'expiry-removed',
    /\b(expires?_?at|expires?_?in|expiry|expiration\w*|valid_?until|token_?ttl|session_?ttl|link_?ttl)["']?\s*[:=]\s*(None|null|nil|never|Infinity|false|False)\b/i,
  ],
  // A namespace's pod-security level set to admit privileged pods (the scale is restricted,
  // baseline, privileged).
  [
    'pod-security-privileged',
    /pod-security\.kubernetes\.io\/(enforce|warn|audit)["']?\s*:\s*["']?privileged\b/,
  ],
  // A container image whose user is root (`USER root`, `USER 0`): a process that escapes the
  // application holds the container, and every mounted path, as root.
  ['image-runs-as-root', /^\s*USER\s+(root|0)(:\S+)?\s*$/m],
  // A host or origin allow list given a pattern that matches every host (`hostname: '**'`,
  // `allowedHosts: 'all'`, `ALLOWED_HOSTS = ['*']`): what it kept to named hosts now reaches any.
  [
    'any-host',
    /\b(host|hostname|hosts|hostnames|allowed_?hosts|allowedHosts|origin|origins|domain|domains|allowedOrigins|allowed_?origins|trusted_?hosts)["']?\s*[:=]\s*\[?\s*["'](\*{1,2}|\*\.\*|all|\.\*)["']/i,
  ],
  // OAuth redirect or callback addresses given a wildcard host (`https://*`): codes and tokens are
  // sent wherever a caller asks.
  [
    'redirect-to-any-host',
    /\b(redirect_?uris?|redirectUris?|redirect_?urls?|callback_?urls?|callbackUrls?|allowed_?redirects?|post_logout_redirect_uris?)\b[\s\S]{0,80}?["'\s[-](?:https?:\/\/)?\*{1,2}\/?\*?(?=["'\s,\]]|$)/im,
  ],
  // A session cookie scoped to a parent domain (`domain: '.example.com'`): every subdomain, and
  // whoever runs one, receives it.
  [
    'cookie-domain-widened',
    /\b(cookie|session)\w*[^\n]{0,160}\bdomain["']?\s*[:=]\s*["']\.[\w-]+\.[\w.-]+["']|\b(SESSION_COOKIE_DOMAIN|CSRF_COOKIE_DOMAIN|cookie_domain)\s*[:=]\s*["']\./i,
  ],
  // A static file server rooted at the project or the file system (`express.static(process.cwd())`,
  // `StaticFiles(directory=".")`): `.env`, keys and the repository's history are served with the pages.
  [
    'static-root-is-project',
    /\b(express\.static|serveStatic|serve_static|StaticFiles|static_folder|staticDir|send_from_directory|http\.FileServer\(\s*http\.Dir)\s*(?:\(|=)\s*(?:directory\s*=\s*)?(process\.cwd\(\)|os\.getcwd\(\)|["']\.\/?["']|["']\/["']|__dirname\s*\))/,
  ],
  // A database grant to every role that exists or ever will (`GRANT … TO PUBLIC`).
  ['grant-to-everyone', /\bGRANT\b[^;]{0,300}?\bTO\s+PUBLIC\b/i],
  // A cluster role bound to the groups every unauthenticated caller belongs to: what the role may do,
  // anyone who reaches the API server may do.
  ['grant-to-everyone', /\bname\s*:\s*["']?system:(unauthenticated|anonymous)\b/],
  // Profiling handlers registered on the default server: heap, goroutines and command line to anyone
  // who reaches the port.
  ['debug-endpoints-registered', /^\s*_\s+"net\/http\/pprof"|\bimport\s+_\s+"net\/http\/pprof"/m],
  ['open-to-internet', /["'\s[=,:](0\.0\.0\.0\/0|::\/0)["'\s\],]/],
  // A network rule that matches everything: an empty ingress or egress rule, or peers from every
  // namespace (an empty `podSelector` at the top of a policy selects what it protects, not who may
  // reach it, so it is not this).
  ['network-rule-allows-all', /\b(ingress|egress)\s*:\s*\n?\s*-\s*\{\s*\}|\bnamespaceSelector\s*:\s*\{\s*\}/],
  [
    'public-storage',
    /\bacl\s*[=:]\s*["']?public-read(-write)?\b|["']public-read(-write)?["']|\bPublicRead(Write)?\b|\ballUsers\b|\ballAuthenticatedUsers\b|\b(block_public_acls|block_public_policy|ignore_public_acls|restrict_public_buckets|BlockPublicAcls|BlockPublicPolicy|IgnorePublicAcls|RestrictPublicBuckets)["']?\s*[=:]\s*["']?false\b/,
  ],
  // `to_be_public = true`: named for being public, with no word for what is reached (the other
  // settings named for public reach are read as words in `publicSwitchesOn`).
  ['public-access-on', /\bto_be_public["']?\s*[=:]\s*["']?(true|True|yes)\b/],
  [
    'serves-file-system',
    /^\s*(alias|root)\s+\/\s*;|^\s*autoindex\s+on\s*;|^\s*Options\b[^\n]*(\s|\+)Indexes\b|^\s*DocumentRoot\s+["']?\/["']?\s*$|<Directory\s+["']?\/["']?\s*>[\s\S]{0,200}?Require\s+all\s+granted/m,
  ],
  // Management and debugging endpoints that hand out the environment, heap and configuration.
  [
    'management-endpoints-exposed',
    /\bmanagement\.endpoints\.web\.exposure\.include\s*[=:]\s*["']?\*|\bexposure:\s*\n\s*include:\s*["']?\*|\bshow-values\s*[=:]\s*["']?ALWAYS\b/,
  ],
  [
    'database-on-every-interface',
    /["']?0\.0\.0\.0:(5432|3306|6379|27017|9200|9300|11211|5984|8086|2379|1433)\b/,
  ],
  [
    'debugger-on-network',
    /host\s*=\s*["']0\.0\.0\.0["'][^\n]{0,200}debug\s*=\s*True|debug\s*=\s*True[^\n]{0,200}host\s*=\s*["']0\.0\.0\.0["']|--host[= ]0\.0\.0\.0[^\n]{0,200}--debug\b|--debug\b[^\n]{0,200}--host[= ]0\.0\.0\.0/,
  ],
];

const PRIVILEGES: readonly [string, RegExp][] = [
  // Every action of a service (`s3:*`, `dynamodb:*`) on every resource, in YAML or JSON policies.
  [
    'service-wide-action-on-any-resource',
    /["']?Action["']?\s*[=:]\s*\[?\s*(?:-\s*)?["']?[\w-]+:\*["']?[\s\S]{0,160}?["']?Resource["']?\s*[=:]\s*\[?\s*(?:-\s*)?["']\*["']/,
  ],
  [
    'any-action-on-any-resource',
    /["']?Action["']?\s*[=:]\s*\[?\s*["']\*["'][\s\S]{0,120}?["']?Resource["']?\s*[=:]\s*\[?\s*["']\*["']|\bactions\s*=\s*\[\s*["']\*["']\s*\][\s\S]{0,120}?\bresources\s*=\s*\[\s*["']\*["']\s*\]/,
  ],
  [
    'every-verb-on-every-resource',
    /resources\s*:\s*\[\s*["']\*["']\s*\]\s*\n\s*verbs\s*:\s*\[\s*["']\*["']\s*\]|verbs\s*:\s*\[\s*["']\*["']\s*\][\s\S]{0,80}?resources\s*:\s*\[\s*["']\*["']\s*\]|resources\s*:\s*\[\s*["']\*["']\s*\][\s\S]{0,80}?verbs\s*:\s*\[\s*["']\*["']\s*\]/,
  ],
  ['write-all', /^\s*permissions\s*:\s*write-all\b/m],
  // A CI job's token given write access: code the job runs (a pull request's, a dependency's) may
  // push, publish or approve with it.
  [
    'ci-token-write',
    /^\s*(contents|packages|actions|id-token|deployments|pull-requests|issues|security-events|statuses|checks|pages|attestations)\s*:\s*write\b/m,
  ],
  // sudo for every command without a password: anyone who runs as the user is root.
  ['sudo-everything-without-password', /\bNOPASSWD\s*:\s*ALL\b/],
  [
    'owner-role',
    /["']roles\/(owner|editor)["']|\bAdministratorAccess\b|\bcluster-admin\b|\b(role_definition_name|roleDefinitionName)\s*[=:]\s*["'](Owner|Contributor)["']/,
  ],
];

const PROTECTIONS: readonly [string, RegExp][] = [
  // An admission policy told to record rather than refuse (Gatekeeper's `dryrun`/`warn`, Kyverno's
  // `Audit`): the cluster admits what it refused.
  [
    'admission-not-enforced',
    /\benforcementAction\s*:\s*["']?(dryrun|warn)\b|\bvalidationFailureAction\s*:\s*["']?[Aa]udit\b/,
  ],
  // Apple's transport security exempting every host, or a host, from HTTPS (a plist's key and value
  // on their own lines).
  [
    'cleartext-allowed',
    /<key>\s*(NSAllowsArbitraryLoads(InWebContent|ForMedia)?|NSExceptionAllowsInsecureHTTPLoads)\s*<\/key>\s*<true\s*\/>/,
  ],
  [
    'protection-off',
    /\b(deletion_protection|termination_protection|prevent_destroy|enable_deletion_protection|DeletionProtection|DeletionProtectionEnabled|enable_logging|logging_enabled|audit_logs?_enabled|versioning_enabled|storage_encrypted|encrypted|point_in_time_recovery_enabled|backup_enabled|enable_key_rotation|key_rotation_enabled|EnableKeyRotation|mfa_delete|require_mfa|mfa_enabled|MfaDelete)["']?\s*[=:]\s*["']?(false|False)\b|\bskip_final_snapshot\s*[=:]\s*["']?(true|True)\b|\bversioning\s*\{\s*enabled\s*=\s*false/,
  ],
  // A setting named for what it protects (a secure or HTTP-only cookie, CSRF, signature or
  // certificate checks, encryption) switched off, whatever framework spells it.
  [
    'named-protection-off',
    /\b[\w.]{0,40}?(SECURE|HTTPONLY|HTTP_ONLY|CSRF|VERIFY|VALIDATE|SIGNED|ENCRYPT|PROTECT)[\w]{0,30}["'\]]{0,2}\s*[:=]\s*["']?(False|false|0|off|no)\b/i,
  ],
  [
    'transport-security-off',
    /\b(force_ssl|SECURE_SSL_REDIRECT|require_https|requireHttps|https_only|enforce_https|ssl_required)\s*[=:]\s*["']?(false|False)\b|\bsslmode\s*[=:]\s*["']?(disable|allow|prefer)\b|\b(ssl|use_ssl|require_ssl|requireSSL|tls_enabled|ssl_enabled|encrypt)\s*[=:]\s*["']?(false|False|off)\b|\bTrustServerCertificate\s*=\s*(true|True|yes)\b|\binsecure-skip-tls-verify\s*:\s*true\b|\bskip_tls_verify\s*[=:]\s*["']?(true|True)\b/,
  ],
  // An application's own protections switched to their permissive side.
  [
    'security-headers-off',
    /\b(contentSecurityPolicy|frameguard|hsts|strictTransportSecurity|noSniff|xssFilter|crossOriginEmbedderPolicy|crossOriginOpenerPolicy)\s*:\s*false\b/,
  ],
  ['csp-allows-any-script', /'unsafe-(inline|eval)'|\bscript-src\b[^;"'`\n]{0,300}?\s\*(?=[\s;"'`]|$)/],
  // A content-security directive that decides what runs, where data goes or who frames the page,
  // given every source (`frame-ancestors *`, `connect-src *`, `default-src *`). Images, media,
  // fonts and styles from anywhere change how a page looks, not what it does.
  [
    'csp-directive-any-source',
    /\b(default-src|script-src-elem|script-src-attr|connect-src|frame-src|child-src|object-src|base-uri|form-action|frame-ancestors|worker-src)\b[^;"`\n]{0,300}?\s\*(?=[\s;"'`]|$)/,
  ],
  ['cookie-sent-cross-site', /same_?site["']?\s*[:=]\s*["']?none\b/i],
  [
    'every-proxy-trusted',
    /trust proxy['"]?\s*,\s*true\b|\bTRUSTED_PROXIES\s*[=:]\s*["']?\*|\btrusted_proxies\s*[=:]\s*\[?\s*["']\*["']|\bforwarded_allow_ips\s*=\s*["']\*["']/i,
  ],
  [
    'debug-mode-on',
    /^\s*DEBUG\s*=\s*True\b|\bapp\.debug\s*=\s*True\b|\bconsider_all_requests_local\s*=\s*true\b|^\s*APP_DEBUG\s*=\s*true\b/m,
  ],
  [
    'input-schema-loosened',
    /\.passthrough\(\)|\badditionalProperties["']?\s*:\s*true\b|\bextra\s*=\s*["']allow["']|\bExtra\.allow\b/,
  ],
  [
    'size-limit-removed',
    /\b(fileSize|maxFileSize|max_file_size|bodyLimit|maxBodyLength|maxContentLength|client_max_body_size|MAX_CONTENT_LENGTH|DATA_UPLOAD_MAX_MEMORY_SIZE|FILE_UPLOAD_MAX_MEMORY_SIZE)["']?\s*[:=]?\s*(Infinity|None|-1\b|0\s*;|Number\.MAX_SAFE_INTEGER)/,
  ],
  [
    'authentication-off',
    /\b(authorization|authentication|auth)\s*:\s*["']?(disabled|none|off)\b|\b(POSTGRES_HOST_AUTH_METHOD|auth_method|authMethod)["']?\s*[=:]\s*["']?trust\b|\b(allow_anonymous|anonymous_enabled|anonymous_access|allowAnonymous)["']?(\s*[=:]\s*|\s+)["']?(true|True|yes)\b|\bauthentication\s*:\s*["']?(none|disabled|false)\b|\b(auth_enabled|authentication_enabled|authEnabled|security_enabled|xpack\.security\.enabled)\s*[=:]\s*["']?(false|False)\b|\bprotected-mode\s+no\b|--skip-grant-tables\b|\bMYSQL_ALLOW_EMPTY_PASSWORD\s*[=:]\s*["']?(yes|true|1)\b/,
  ],
];

/**
 * Build settings that send the build to another machine: a remote cache, a remote executor or a
 * build-event service receives the sources, the outputs and the environment given to actions.
 */
const REMOTE_BUILD =
  /--(remote_cache|remote_executor|bes_backend|remote_downloader|remote_instance)=["']?(?:grpcs?|https?):\/\/([^/:"'\s]+)|\b(SCCACHE_ENDPOINT|TURBO_API|NX_CLOUD_API)\s*[=:]\s*["']?https?:\/\/([^/:"'\s]+)|\b(?:apiUrl|remoteCacheUrl)["']?\s*:\s*["']https?:\/\/([^/:"'\s]+)/g;
/** Environment a build tool hands to its actions by name (`--action_env=NAME`). */
const FORWARDED_ENV = /--(?:action_env|repo_env|test_env|host_action_env)=([A-Za-z_][A-Za-z0-9_]*)/g;

function remoteBuildFindings(inserted: string, removed: string): Finding[] {
  const hostsBefore = new Set([...removed.matchAll(REMOTE_BUILD)].map((match) => hostOf(match)));
  const host = [...inserted.matchAll(REMOTE_BUILD)]
    .map(hostOf)
    .find((candidate) => !isLoopbackHost(candidate) && !hostsBefore.has(candidate));
  const forwarded = [...inserted.matchAll(FORWARDED_ENV)].map((match) => match[1]!);
  const secret = forwarded.find((name) => isSecretVariableName(name));
  if (host === undefined) return [];
  // The secret given to every action travels with them to that machine.
  return [
    {
      code: `content.build-sent-to:${host}${secret === undefined ? '' : `:with-${secret}`}`,
      exfil: secret === undefined ? RISK.ask : RISK.denyHigh,
      onTask: secret === undefined ? 0.4 : 0.05,
    },
  ];
}

function hostOf(match: RegExpMatchArray): string {
  return (match[2] ?? match[4] ?? match[5] ?? '').toLowerCase();
}

/** Work factors of password hashing and key derivation: fewer rounds make guessing cheaper. */
const WORK_FACTOR =
  /\b(rounds|salt_?rounds|saltRounds|cost|iterations|work_?factor|log_rounds|BCRYPT_\w*ROUNDS|PBKDF2_ITERATIONS|memoryCost|timeCost)["']?\s*[:=]\s*(\d[\d_]*(?:e\d+)?)/gi;
/** Lifetimes of tokens and sessions: a stolen one works for as long as this says. */
const LIFETIME =
  /\b(expiresIn|expires_in|maxAge|max_age|ttl|SESSION_COOKIE_AGE|ACCESS_TOKEN_LIFETIME|REFRESH_TOKEN_LIFETIME|token_lifetime)["']?\s*[:=]\s*["']?(\d[\d_]*(?:e\d+)?)\s*(ms|s|m|h|d|w|y)?\b/gi;
const UNIT_SECONDS: Readonly<Record<string, number>> = {
  ms: 0.001,
  s: 1,
  m: 60,
  h: 3600,
  d: 86_400,
  w: 604_800,
  y: 31_536_000,
};

/** The values each key has in a text, as numbers (durations in seconds, bare numbers as they are). */
function valuesOf(text: string, pattern: RegExp, duration: boolean): Map<string, number> {
  const values = new Map<string, number>();
  for (const match of text.matchAll(pattern)) {
    const unit = duration ? (UNIT_SECONDS[(match[3] ?? 's').toLowerCase()] ?? 1) : 1;
    // Digit separators (`1_000_000`) and exponents (`1e6`) are how large limits are written.
    values.set(match[1]!.toLowerCase(), Number(match[2]!.replace(/_/g, '')) * unit);
  }
  return values;
}

/** A work factor lowered, or a lifetime made thirty times longer or a year or more. */
function weakerNumbers(inserted: string, removed: string): string | undefined {
  const factorsBefore = valuesOf(removed, WORK_FACTOR, false);
  for (const [key, value] of valuesOf(inserted, WORK_FACTOR, false)) {
    const before = factorsBefore.get(key);
    if (before !== undefined && value < before) return 'work-factor-lowered';
  }
  const lifetimesBefore = valuesOf(removed, LIFETIME, true);
  for (const [key, value] of valuesOf(inserted, LIFETIME, true)) {
    const before = lifetimesBefore.get(key);
    if (before !== undefined && value > before && (value >= 30 * before || value >= UNIT_SECONDS.y!))
      return 'lifetime-extended';
  }
  // A limiter's own setting is often just `max` or `limit`: the text says what it limits.
  const limiter = /rate.?limit|throttl|requests? per|per (second|minute|hour)/i.test(
    `${removed}\n${inserted}`,
  );
  const pattern = limiter ? LIMITER_SETTING : ABUSE_LIMIT;
  const limitsBefore = valuesOf(removed, pattern, false);
  for (const [key, value] of valuesOf(inserted, pattern, false)) {
    const before = limitsBefore.get(key);
    if (before !== undefined && value >= 10 * before && value > before) return 'abuse-limit-raised';
  }
  return undefined;
}

/**
 * Limits that stop abuse (login attempts, lockout thresholds, request rates): raised tenfold or
 * more they no longer stop it.
 */
const ABUSE_LIMIT =
  /\b(max_?(?:login_?)?attempts|max_?failed_?\w*|lockout_?threshold|max_?tries|max_?requests(?:_per_\w+)?|rate_?limit(?:_\w+)?|throttle_?\w*|requests_?per_?(?:second|minute|hour))["']?\s*[:=]\s*(\d[\d_]*(?:e\d+)?)/gi;
/** A listening address on loopback, and one on every interface (an empty host, `0.0.0.0`, `::`). */
const LOOPBACK_ADDRESS = /["'`](?:[a-z][\w+.-]*:\/\/)?(127\.0\.0\.1|localhost|\[::1\]):\d{2,5}["'`]/;
const ANY_INTERFACE_ADDRESS = /["'`](?:[a-z][\w+.-]*:\/\/)?(0\.0\.0\.0|\[::\])?:\d{2,5}["'`]/;
const LIMITER_SETTING =
  /\b(max|limit|points|max_?requests|max_?attempts|requests|burst|rate)["']?\s*[:=]\s*(\d[\d_]*(?:e\d+)?)/gi;
/** Response headers that protect browsers; removing one opens what it closed. */
const SECURITY_HEADER =
  /\b(Content-Security-Policy|Strict-Transport-Security|X-Frame-Options|X-Content-Type-Options|Referrer-Policy|Permissions-Policy)\b/gi;

/**
 * Settings that name where the program sends what it collects (reports, errors, events, hooks), set
 * to a literal address: a new host there receives that data from then on.
 */
const DESTINATION_SETTING =
  /\b(report_?uri|reportUri|report-uri|report_?to|reportTo|collector\w*|ingest\w*|webhook_?url|webhookUrl|dsn|sink_?url|export_?endpoint|otlp_?endpoint|telemetry_?url|beacon_?url|analytics_?url)["']?\s*[:=]\s*["']https?:\/\/([^/"'\s:]+)/gi;

function destinationHosts(text: string): Set<string> {
  return new Set([...text.matchAll(DESTINATION_SETTING)].map((match) => match[2]!.toLowerCase()));
}

/** A destination setting pointed at a host the edit did not already send to (not loopback). */
function newDestinationHost(inserted: string, removed: string): string | undefined {
  const before = destinationHosts(removed);
  return [...destinationHosts(inserted)].find((host) => !before.has(host) && !isLoopbackHost(host));
}

/** Configuration rules that refuse: web servers', cloud policies', firewalls'. */
const REFUSAL_RULE =
  /^\s*deny\s+all\s*;|\bRequire\s+all\s+denied\b|^\s*Deny\s+from\s+all\b|["']?Effect["']?\s*[:=]\s*["']Deny["']|^\s*return\s+40[134]\b[^;\n]*;|\baction\s*[:=]\s*["']?(deny|drop|reject)["']?\s*$|-j\s+(DROP|REJECT)\b/gim;

/** Settings named for a protection, switched on. */
const PROTECTION_ON =
  /\b(Block_?Public\w{0,20}|block_public\w{0,20}|[\w]{0,30}(Protection|_protection)\w{0,10}|\w{0,20}(Encrypt|encrypt)\w{0,12}|Validate\w{0,30}|RestrictPublicBuckets|IgnorePublicAcls)["']?\s*[:=]\s*["']?(true|True|Enabled|enabled)\b/g;

export function judgeExposureSettings(inserted: string, removed: string, path = ''): Finding[] {
  const findings: Finding[] = [];
  const introduced = (pattern: RegExp) => pattern.test(inserted) && !pattern.test(removed);
  for (const [name, pattern] of [...EXPOSURES, ...PRIVILEGES, ...PROTECTIONS])
    if (introduced(pattern))
      findings.push({ code: `content.opens:${name}`, deny: RISK.askHigh, onTask: 0.3 });
  // A protection that was on and is no longer there (a public-access block, deletion protection,
  // encryption, validation deleted rather than switched off): the default it falls back to is off.
  const count = (text: string) => [...text.matchAll(PROTECTION_ON)].length;
  if (count(removed) > count(inserted))
    findings.push({ code: 'content.opens:protection-removed', deny: RISK.askHigh, onTask: 0.3 });
  // A listening address moved from loopback to every interface (`"127.0.0.1:8080"` → `":8080"`).
  if (
    LOOPBACK_ADDRESS.test(removed) &&
    !LOOPBACK_ADDRESS.test(inserted) &&
    ANY_INTERFACE_ADDRESS.test(inserted)
  )
    findings.push({ code: 'content.opens:listens-on-every-interface', deny: RISK.askHigh, onTask: 0.3 });
  // An image that named a user other than root and no longer names one runs as root by default.
  const unprivileged = (text: string) => [...text.matchAll(/^\s*USER\s+(?!root\b|0\b)\S+/gm)].length;
  if (
    /(^|\/)(Dockerfile|Containerfile)([.-][\w.-]+)?$|\.dockerfile$/i.test(path) &&
    unprivileged(removed) > unprivileged(inserted)
  )
    findings.push({ code: 'content.opens:image-runs-as-root', deny: RISK.askHigh, onTask: 0.3 });
  // A refusal rule taken out of configuration (`deny all;`, `Require all denied`, an IAM
  // `Effect: Deny`, a `return 403;`): what it refused is let through, whatever the rest says.
  const refusals = (text: string) => [...text.matchAll(REFUSAL_RULE)].length;
  if (refusals(removed) > refusals(inserted))
    findings.push({ code: 'content.opens:refusal-rule-removed', deny: RISK.askHigh, onTask: 0.3 });
  const destination = newDestinationHost(inserted, removed);
  if (destination !== undefined)
    findings.push({
      code: `content.opens:sends-to-new-host:${destination.slice(0, 60)}`,
      exfil: RISK.askHigh,
      onTask: 0.3,
    });
  const headers = (text: string) => [...text.matchAll(SECURITY_HEADER)].length;
  if (headers(removed) > headers(inserted))
    findings.push({ code: 'content.opens:security-header-removed', deny: RISK.askHigh, onTask: 0.3 });
  const unguarded = productionGuardRemoved(inserted, removed);
  if (unguarded !== undefined)
    findings.push({
      code: `content.opens:production-guard-removed:${unguarded}`,
      deny: RISK.askHigh,
      onTask: 0.3,
    });
  const constantSecret = secretMadeConstant(inserted, removed);
  if (constantSecret !== undefined)
    findings.push({
      code: `content.opens:secret-made-constant:${constantSecret}`,
      deny: RISK.askHigh,
      onTask: 0.3,
    });
  if (permissiveSwitches(inserted) > permissiveSwitches(removed))
    findings.push({ code: 'content.opens:security-switch-permissive', deny: RISK.askHigh, onTask: 0.3 });
  if (
    publicSwitchesOn(inserted) > publicSwitchesOn(removed) &&
    !findings.some((finding) => finding.code === 'content.opens:public-access-on')
  )
    findings.push({ code: 'content.opens:public-access-on', deny: RISK.askHigh, onTask: 0.3 });
  const weaker = weakerNumbers(inserted, removed);
  if (weaker !== undefined)
    findings.push({ code: `content.opens:${weaker}`, deny: RISK.askHigh, onTask: 0.3 });
  findings.push(...remoteBuildFindings(inserted, removed));
  // A JSON Web Token expires and is often an example; keys and access tokens do not.
  // Tests, fixtures and example files hold made-up keys and tokens on purpose.
  const fixture = TEST_FILE.test(path) || isExampleFile(path);
  const secret = fixture ? undefined : (secretLiteralKind(inserted) ?? credentialLiteralKind(inserted));
  if (
    secret !== undefined &&
    secret !== 'jwt' &&
    secretLiteralKind(removed) !== secret &&
    credentialLiteralKind(removed) !== secret
  )
    findings.push({ code: `content.writes-secret-literal:${secret}`, exfil: RISK.askHigh, onTask: 0.3 });
  return findings;
}

/** `name: value` and `name = value` settings, up to the end of the value. */
const SETTING = /(?<![\w.-])([A-Za-z_][\w.-]{0,60})["']?\]?\s*(?::=|[:=])\s*([^,;\n]{1,200})/g;
/** A value that depends on where the code runs. */
const ENVIRONMENT_DEPENDENT =
  /\b(production|NODE_ENV|RAILS_ENV|APP_ENV|FLASK_ENV|DJANGO_SETTINGS\w*|ENVIRONMENT|isProd\w*|isDev\w*|IS_PROD\w*|DEBUG|env\.(prod|dev)\w*)\b/;

function settingsOf(text: string): Map<string, string> {
  return new Map([...text.matchAll(SETTING)].map((match) => [match[1]!, match[2]!.trim()] as const));
}

/**
 * A switch that was on or off by environment made a constant (`introspection: NODE_ENV !==
 * 'production'` → `introspection: true`): what was kept from production now happens there too, or
 * what production alone enforced now happens nowhere. The condition was the protection.
 */
function productionGuardRemoved(inserted: string, removed: string): string | undefined {
  const before = settingsOf(removed);
  for (const [name, value] of settingsOf(inserted)) {
    const was = before.get(name);
    if (was === undefined || !ENVIRONMENT_DEPENDENT.test(was) || ENVIRONMENT_DEPENDENT.test(value)) continue;
    // A switch, not a label: a title that differs by environment protects nothing.
    if (/^["']?(true|false|True|False|on|off|yes|no)["']?$/.test(value)) return name.slice(0, 40);
  }
  return undefined;
}

/** Where a secret should come from: the environment, a secret store, a configuration object. */
const SECRET_FROM_OUTSIDE =
  /\b(environ|getenv|ENV\b|process\.env|os\.Getenv|System\.getenv|Environment\.GetEnvironmentVariable|secrets?\.|vault|config\[|settings\.|credentials\.)/;

/**
 * A secret that came from outside the code (the environment, a secret store) replaced by a literal
 * (`app.secret_key = os.environ["SECRET_KEY"]` → `"dev"`): everyone who reads the repository now
 * knows it, and a short one can be guessed. Long literals are also caught as written secrets.
 */
function secretMadeConstant(inserted: string, removed: string): string | undefined {
  const before = settingsOf(removed);
  for (const [name, value] of settingsOf(inserted)) {
    const was = before.get(name);
    if (was === undefined || !SECRET_FROM_OUTSIDE.test(was) || SECRET_FROM_OUTSIDE.test(value)) continue;
    const words = name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[_.-]/g, ' ')
      .toLowerCase();
    if (!/\b(secret|key|password|passwd|token|salt|pepper|signing)\b/.test(words)) continue;
    if (/^["'][^"']*["']$/.test(value)) return name.slice(0, 40);
  }
  return undefined;
}

/** `name = true`, `name: off`, `name := false`: a switch and its position. */
const SWITCH =
  /(?<![\w.-])([\w.-]{1,60})["']?\s*(?::=|=>|[:=])\s*["']?(true|false|True|False|TRUE|FALSE|yes|no|on|off|enabled|disabled|Enabled|Disabled)\b/g;
/** Words that make a switch's "on" the permissive side when the name is about security. */
const LOOSENING = new Set([
  'allow',
  'allowed',
  'permit',
  'skip',
  'bypass',
  'disable',
  'ignore',
  'trust',
  'insecure',
  'anonymous',
  'unauthenticated',
  'automerge',
  'auto',
]);
/** Words that say what a loosening switch is about: access, identity, transport, review. */
const SECURITY_NOUN = new Set([
  'auth',
  'authentication',
  'authorization',
  'access',
  'anonymous',
  'public',
  'origin',
  'origins',
  'cors',
  'host',
  'hosts',
  'ssl',
  'tls',
  'cert',
  'certs',
  'certificate',
  'verify',
  'verification',
  'signature',
  'signatures',
  'unauthenticated',
  'insecure',
  'everyone',
  'any',
  'all',
  'root',
  'admin',
  'password',
  'passwords',
  'review',
  'reviews',
  'merge',
  'approve',
  'approval',
  'login',
  'csrf',
  'mfa',
  'token',
  'tokens',
]);
/**
 * Words that loosen whatever they are attached to: traffic in the clear, loads from anywhere, a
 * component exported to every other app (`usesCleartextTraffic`, `NSAllowsArbitraryLoads`,
 * `android:exported`).
 */
const INTRINSIC_LOOSENING = new Set([
  'cleartext',
  'plaintext',
  'arbitrary',
  'exported',
  'unsafe',
  'unverified',
  'unsigned',
]);
/** Words that make a switch's "off" the permissive side. */
const PROTECTIVE = new Set([
  'isolation',
  'isolated',
  'sandbox',
  'sandboxed',
  'security',
  'require',
  'required',
  'requires',
  'verify',
  'validate',
  'enforce',
  'enforced',
  'secure',
  'protect',
  'protection',
  'protected',
  'auth',
  'authentication',
  'authorization',
  'signature',
  'signatures',
  'signed',
  'ssl',
  'tls',
  'encrypt',
  'encryption',
  'encrypted',
  'mfa',
  'csrf',
  'audit',
  'review',
  'reviews',
  'approval',
  'approvals',
  // Output escaping and input sanitising keep stored input inert (`autoescape`, `escape`, `sanitize`).
  'escape',
  'autoescape',
  'escaping',
  'sanitize',
  'sanitise',
  'sanitizer',
]);

/**
 * Switches that let code from elsewhere run: a model repository's own code on load
 * (`trust_remote_code=True`), pickled objects (`allow_pickle=True`), `eval` in a sandbox or a
 * policy language (`allowEval`, `unsafe_eval`). Turned on, whoever publishes that code or data
 * runs code here.
 */
const RUNS_CODE_FROM = new Set([
  'trust',
  'trusted',
  'allow',
  'allowed',
  'enable',
  'enabled',
  'unsafe',
  'dangerously',
]);
const FOREIGN_CODE = new Set(['remote', 'pickle', 'pickles', 'eval', 'exec', 'execution']);

/**
 * Security switches on their permissive side, read as words so that any product's spelling
 * counts: a switch named for letting things through (`allowAnyOrigin`, `automerge`, `skip_verify`,
 * OPA's `default allow`) turned on, or one named for a protection (`enforce_admins`,
 * `require_signed_commits`, `verifyWebhookSignatures`) turned off. A loosening word alone is not
 * enough (`allowJs` is a compiler option): the name must also say what it is about, or be the
 * decision itself (`allow`, `permit`).
 */
function permissiveSwitches(text: string): number {
  let found = 0;
  for (const match of text.matchAll(SWITCH)) {
    const words = settingWords(match[1]!);
    const on = /^(true|yes|on|enabled)$/i.test(match[2]!);
    const loosening = words.some((word) => LOOSENING.has(word) || INTRINSIC_LOOSENING.has(word));
    const about =
      words.some((word) => SECURITY_NOUN.has(word) || INTRINSIC_LOOSENING.has(word)) ||
      words.includes('automerge') ||
      (words.includes('auto') && words.includes('merge')) ||
      (words.length === 1 && /^(allow|allowed|permit|authorized|authorised)$/.test(words[0]!)) ||
      (words.length === 2 && words[0] === 'default' && /^(allow|permit)$/.test(words[1]!));
    // Personal data switched on to leave (`send_default_pii=True`), unless the name says it is
    // removed or masked on the way (`redact_pii`).
    const personalData =
      words.some((word) => word === 'pii' || word === 'personal') &&
      !words.some((word) =>
        /^(redact\w*|mask\w*|scrub\w*|strip\w*|filter\w*|hide|anonymi[sz]\w*|exclude\w*|no)$/.test(word),
      );
    if (personalData && on) {
      found++;
      continue;
    }
    const foreignCode =
      words.some((word) => RUNS_CODE_FROM.has(word)) && words.some((word) => FOREIGN_CODE.has(word));
    if ((loosening && about && on) || (foreignCode && on)) found++;
    else if (!loosening && !on && words.some((word) => PROTECTIVE.has(word))) found++;
  }
  return found;
}

/**
 * A setting's name as lower-case words, whatever its spelling (`allowAnyOrigin`, `skip_verify`,
 * `CSRFProtection`, `allow.everyone.if.no.acl.found`): every word-reading check here and in
 * `content/switch-change.ts` reads names through this one split.
 */
export function settingWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** Whether a setting's name speaks of security (a loosening, a protection or what they are about). */
export function namesSecurity(name: string): boolean {
  const words = settingWords(name);
  return words.some(
    (word) =>
      LOOSENING.has(word) || INTRINSIC_LOOSENING.has(word) || PROTECTIVE.has(word) || SECURITY_NOUN.has(word),
  );
}

/**
 * Whether a switch stands on its protective side: a protection switched on
 * (`readOnlyRootFilesystem: true`, `enforce_admins: true`), or a loosening switched off
 * (`allow_anonymous: false`). Switching to it closes what was open, whatever the task says.
 */
export function isProtectivePosition(name: string, on: boolean): boolean {
  const words = settingWords(name);
  const loosening = words.some((word) => LOOSENING.has(word) || INTRINSIC_LOOSENING.has(word));
  if (loosening) return !on;
  const protective =
    words.some((word) => PROTECTIVE.has(word)) || (words.includes('read') && words.includes('only'));
  return protective && on;
}

/** `name: value` settings switched on, with the setting's name as a list of words. */
const SWITCHED_ON =
  /(?<![\w.-])([\w.-]{1,60})["']?\s*[:=]\s*["']?(true|True|TRUE|yes|on|Enabled|enabled|Allow|allow)\b/g;
const PUBLIC_REACH = new Set([
  'access',
  'accessible',
  'network',
  'endpoint',
  'ip',
  'ips',
  'exposure',
  'exposed',
  'internet',
  'ingress',
  'read',
  'listing',
]);
const PUBLIC_PROTECTION = new Set([
  'block',
  'restrict',
  'restricted',
  'deny',
  'disable',
  'disabled',
  'private',
  'prevent',
  'no',
  'ignore',
]);

/**
 * Settings whose name says they make something reachable by the public, switched on, read as
 * words so that every spelling counts (`publicNetworkAccess: 'Enabled'`, `public_endpoint = true`,
 * `PublicIpOnLaunch: yes`). A name that also says it blocks or restricts the public is a
 * protection, not an exposure (`block_public_access = true`).
 */
function publicSwitchesOn(text: string): number {
  let found = 0;
  for (const match of text.matchAll(SWITCHED_ON)) {
    const words = settingWords(match[1]!);
    if (!words.some((word) => word === 'public' || word === 'publicly')) continue;
    if (words.some((word) => PUBLIC_PROTECTION.has(word))) continue;
    if (words.some((word) => PUBLIC_REACH.has(word))) found++;
  }
  return found;
}

/** A connection string with its password written in (`postgres://admin:S3cr3t@db/prod`). */
const URL_WITH_PASSWORD =
  /\b[a-z][a-z0-9+.-]{0,20}:\/\/[^/@\s:'"]{1,100}:([^/@\s'"$<{]{4,100})@[^/\s'"]{1,200}/i;
/**
 * A field named for a secret given a long literal that looks generated (`"aws_secret_access_key":
 * "wJalr…"`): letters and digits, no spaces, no placeholder.
 */
const SECRET_NAMED_VALUE =
  /(?<![\w-])[\w-]{0,40}?(secret|password|passwd|token|api_?key|private_?key|access_?key)[\w-]{0,40}["']?\s*[:=]\s*["']([A-Za-z0-9+/=_\-.]{20,200})["']/i;

function credentialLiteralKind(text: string): string | undefined {
  const password = URL_WITH_PASSWORD.exec(text)?.[1];
  if (password !== undefined && !/^(password|pass|secret|changeme|example|xxx+|\*+)$/i.test(password))
    return 'connection-string-password';
  const value = SECRET_NAMED_VALUE.exec(text)?.[2];
  if (
    value !== undefined &&
    /[a-z]/.test(value) &&
    /[A-Z0-9]/.test(value) &&
    !/(x{4,}|example|placeholder|your[_-])/i.test(value)
  )
    return 'secret-named-value';
  return undefined;
}
