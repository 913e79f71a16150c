import type { Finding } from './finding.js';
import { RISK } from './risk-scale.js';

/**
 * Principle 5 for code, beyond sends and authentication checks (`inserted-content.ts`): what the
 * inserted code does when it runs, judged by shape, whatever the language.
 *
 * - Request input reaching a dangerous sink: a command or code runner, a template compiled from
 *   it, a deserialiser, a file path, an SQL string built by concatenation, an outbound request's
 *   address. Whoever sends the request decides what runs, what is read or where the server connects.
 * - A safeguard around input removed by the edit (`path.basename`, `secure_filename`,
 *   `yaml.safe_load`, `send_from_directory`, a rate limiter, an allow-list, an audit record, a
 *   query's placeholders): the input now reaches what it guarded, or the act goes unrecorded.
 * - Transport, token, password-hash and cookie protections switched off; broken ciphers and ECB;
 *   XML parsers told to expand entities.
 * - Code run from an encoded literal (`eval(atob('…'))`): hidden from whoever reads the change.
 * - Recursive deletion of the home or root directory, and writes to files that run later
 *   (shell start-up files, authorised keys, schedulers): the shell rules' principles, in code.
 * - Cryptocurrency miners: the machine's work given to someone else.
 *
 * Each is a finding only when the edit introduces it (the removed text did not already hold it).
 */

/** Where a request's data is read: web frameworks of the common languages. */
const REQUEST_SOURCE =
  /\b(req|request|ctx\.request|ctx|event|r)\s*(\.|\[)\s*['"]?(headers|query|body|params|args|form|json|data|values|GET|POST|cookies|files|getParameter|getHeader|getQueryString|getInputStream|FormValue|PostFormValue|URL)\b|\$_(GET|POST|REQUEST|COOKIE|FILES|SERVER)\b|\bparams\s*\[|\$request->(input|get|query|post|all|cookie|file|header|json)\s*\(|\bRequest\s*\.\s*(Query|Form|Headers|Cookies|Body|QueryString|Params|RouteValues|Files)\b/;
const REQUEST_SOURCES = new RegExp(REQUEST_SOURCE.source, 'g');
/** Calls that open a file by the path they are given. */
const FILE_SINK =
  /^(send_file|sendFile|download|readFile|readFileSync|fopen|file_get_contents|open|Open|ReadFile|include|include_once|require_once)$/;
/** Calls that run, deserialise, render as a template or open what they are given. */
const RUNS_OR_OPENS =
  /\b(subprocess\.\w+|render_template_string|from_string|renderString|ERB\.new|Template|Process\.Start|ObjectInputStream|XMLDecoder|BinaryFormatter|SoapFormatter|NetDataContractSerializer|LosFormatter|require|import|import_module|__import__|getattr|const_get|forName|exec|execSync|spawn|spawnSync|execFile|system|popen|shell_exec|passthru|proc_open|eval|assert|create_function|Function|runInNewContext|runInThisContext|Command|ProcessBuilder|loads|load|unsafe_load|unserialize|readObject|decode|send_file|sendFile|download|readFile|readFileSync|fopen|file_get_contents|include|include_once|require_once|open|Open|ReadFile)\s*\(/g;
/**
 * Deserialisers that are safe by construction, read at the call itself: `pickle.loads(b64decode(x))`
 * is no safer for the decoding inside it. A `load` given a safe loader is safe too. JSON and TOML
 * build only data whichever library parses them (`json`, `orjson`, `ujson`, `simplejson`,
 * `msgspec.json`, `tomllib`), as does `ast.literal_eval`.
 */
const SAFE_CALL =
  /\b(\w*(json|JSON|Json|toml|Toml)\w*\.(loads?|parse|decode)|jwt\.decode|base64\.\w+|safe_load|literal_eval)\s*\($/;
const SAFE_LOADER = /\bSafeLoader\b/;
/** Outbound requests by their library's name: request input there chooses where the server connects. */
const NETWORK_CALL =
  /\b(requests\.\w+|httpx\.\w+|urllib\.request\.urlopen|urlopen|axios(\.\w+)?|got(\.\w+)?|fetch|http\.(Get|Post|Head|NewRequest)|https?\.(get|request)|curl_init|Net::HTTP\.get|HttpClient\.\w+|RestTemplate\.\w+|openConnection)\s*\(/g;
/**
 * Request input that reaches where else a request should not decide: markup written without
 * escaping, the target of a redirect, an object merged with it (prototype pollution, mass
 * assignment). Asked: the change may mean it, but the reader should see it.
 */
const INPUT_SINKS: readonly [string, RegExp][] = [
  [
    'html-unescaped',
    /\b(raw|template\.HTML|Markup|mark_safe|SafeString|HtmlString|document\.write)\s*\(|dangerouslySetInnerHTML|\.innerHTML\s*=|\b(send|write|end)\s*\(\s*`[^`]*<\w/g,
  ],
  [
    'redirect',
    /\b(?!is|safe|valid|check|allowed)\w*[Rr]edirect(_to|To)?\s*\(|\bredirect_to\s+|\blocation\.(assign|replace)\s*\(|\blocation\.href\s*=/g,
  ],
  [
    'merged-object',
    /\b(merge|mergeDeep|defaultsDeep|deepmerge|extend|assign|update_attributes|assign_attributes)\s*\(/g,
  ],
];
/** A call named for checking or making safe what it is given (`safeNext(`, `sanitize(`, `isAllowed(`). */
const CHECKING_CALL =
  /\b(safe|saniti[sz]e|valid|allow|check|escape|clean|encode|strip|whitelist|allowlist)\w*\s*\(/i;

/** Methods called on the input itself: `params[:type].constantize`, `params[:bio].html_safe`, `params.permit!`. */
const INPUT_METHOD_SINK = /\.(constantize|safe_constantize|html_safe|permit!)(?!\w)/;

/** PHP's include and require take a path without parentheses: `include $_GET['page'];`. */
const PHP_INCLUDE = /\b(include|include_once|require|require_once)\s+(?!\()/g;
/**
 * Code run from an encoded literal (`eval(atob('…'))`, `exec(base64.b64decode(…))`): what runs is
 * hidden from the reader of the change, which is why it is written so.
 */
const RUNS_ENCODED =
  /\b(eval|exec|Function|execSync|system|runInNewContext|runInThisContext|instance_eval|class_eval)\s*\(\s*(?:compile\s*\(\s*)?(Buffer\.from|atob|base64\.b64decode|b64decode|Base64\.decode64|base64_decode|codecs\.decode|bytes\.fromhex|zlib\.decompress|gzinflate|str_rot13|unhexlify)\b/;
/** A query written with placeholders (`%s`, `?`, `$1`, `:name`), or as a tagged SQL template, its values passed apart. */
const PARAMETERISED_QUERY =
  /\b(execute|query|raw|prepare|exec)\s*\(\s*(['"`])\s*(SELECT|INSERT|UPDATE|DELETE)\b[^'"`\n]*(%s|\?|\$\d|:[a-z_]\w*)[^'"`\n]*\2\s*,|(?:\bsql|\$queryRaw|\$executeRaw|Prisma\.sql|\bSQL)\s*`\s*(SELECT|INSERT|UPDATE|DELETE)\b/i;
/**
 * SQL text joined with something: a string literal holding SQL, then `+`, or `${…}` inside an
 * untagged template (a tagged one, `sql\`…\`` or `$queryRaw\`…\``, passes its values apart).
 */
const SQL_CONCATENATION =
  /"\s*(SELECT|INSERT|UPDATE|DELETE)\b[^"\n]*"\s*(\+|%\s*\(?|\.\s*format\s*\()|'\s*(SELECT|INSERT|UPDATE|DELETE)\b[^'\n]*'\s*(\+|%\s*\(?|\.\s*format\s*\()|(?<![\w$])`\s*(SELECT|INSERT|UPDATE|DELETE)\b[^`]*\$\{|\bf(['"])\s*(SELECT|INSERT|UPDATE|DELETE)\b[^\n]{0,300}?\{/i;

/**
 * Calls and names that keep input inside a place, make it inert, limit how often it comes, admit
 * only listed values or keep a record of what was done; removing one lets the input through or
 * the act go unrecorded.
 */
const SAFEGUARD =
  /\b(basename|secure_filename|safe_join|safe_load|safe_eval|send_from_directory|sanitize\w*|sanitise\w*|escape\w*|realpath|normpath|normalize|shlex\.quote|escapeshellarg|parameteri[sz]e\w*|DOMPurify|bleach\.clean|rateLimit\w*|rate_limit\w*|\w*[Ll]imiter|throttle\w*|helmet|audit\w*|\w*SameOrigin\w*|ALLOWED_\w+|allow_?list\w*|allowedHosts|whitelist\w*|safeParse|ValidationError|BadRequest\w*|UnprocessableEntity\w*|\w+Schema(?=\s*\.\s*(?:parse|validate|check|assert)\w*\s*\()|\w*[Vv]alidator\w*)\b/g;

/** Output escaping turned off, in code or in a template (`|safe`, `{!! !!}`, `v-html`). */
export const UNESCAPED_HTML =
  /dangerouslySetInnerHTML|\|\s*safe\b|\bmark_safe\(|\.html_safe\b|\bv-html=|\.innerHTML\s*=|\{!!|<%==|\bMarkup\(|\bbypassSecurityTrust\w*\(/;

/** Generators of secrets, and generators that are not. */
// Named imports count as much as qualified calls (`import { randomBytes } from 'node:crypto'`).
const CSPRNG =
  /\bsecrets\.\w+|\btoken_(hex|urlsafe|bytes)\(|\b(?:crypto\.)?(randomBytes|randomUUID|getRandomValues)\(|crypto\.randomInt|\bos\.urandom|\bSecureRandom\b|\brandom_bytes\(|\brandom_int\(|\bRandomNumberGenerator\b|\bcrypto\/rand\b|\bOsRng\b/;
const WEAK_RANDOM =
  /\brandom\.(random|randint|choice|randrange)\(|Math\.random\(|\bmt_rand\(|\brand\(|\bnew Random\(|\bmath\/rand\b/;

const WEAKENING: readonly [string, RegExp][] = [
  // A deserialiser that rebuilds any object the bytes describe, and so runs what they name, put
  // where data is read (`json.loads` → `pickle.loads`): whoever writes the bytes runs code.
  [
    'unsafe-deserialiser',
    /\b(pickle|cPickle|dill|marshal|jsonpickle)\.loads\s*\(|\bunserialize\s*\(|\bMarshal\.load\s*\(|\bnew\s+(BinaryFormatter|ObjectInputStream|NetDataContractSerializer|LosFormatter)\b|\bnode-serialize\b|\bserialize\.unserialize\b/,
  ],
  // An agent's tool list given a tool that runs commands or sends messages out: what the model is
  // talked into, it can now do.
  [
    'agent-given-powerful-tool',
    /\b(TOOLS|tools|allowed_tools|allowedTools|toolset|tool_list)\b[^\n]{0,200}\b(run_shell|shell_exec|bash|terminal|run_command|execute_command|exec_command|send_email|send_mail|send_message|http_request|write_file|delete_file|python_repl|code_interpreter)\b/,
  ],
  // A token verifier that accepts the `none` algorithm accepts tokens nobody signed.
  ['unsigned-tokens-accepted', /\balgorithms?["']?\s*[:=]\s*[[(][^\])]*["']none["']/i],
  // One verifier that accepts both a shared-secret and a public-key algorithm lets a token signed
  // with the public key (which anyone has) as the HMAC secret pass (key confusion).
  [
    'key-confusion',
    /\balgorithms?["']?\s*[:=]\s*[[(](?=[^\])]*["']HS\d{3}["'])(?=[^\])]*["'](RS|ES|PS)\d{3}["'])/,
  ],
  // Output escaping turned off: what the markup holds is rendered as markup (stored XSS).
  ['unescaped-html', UNESCAPED_HTML],
  // A module loaded from a specifier the program does not fix (`import(name)`, `require(plugin)`):
  // whoever controls the value chooses the code that runs, a URL included. A literal, or a
  // template that starts with a fixed path (`import(\`./builtin/${name}.js\`)`), keeps it in place.
  [
    'code-from-unfixed-specifier',
    /\b(?:import|require|__import__|importlib\.import_module)\s*\(\s*(?![`'"\s)]|\w+\.(?:resolve|join)\s*\(\s*__dirname)[^)\n]{1,120}\)/,
  ],
  // A security scanner told to look away from a line (`# nosec`, `//nolint:gosec`,
  // `# noqa: S608`, `eslint-disable … security`): what it would report is no longer reported.
  [
    'security-scanner-silenced',
    /#\s*nosec\b|\/\/\s*nolint:\s*\w*gosec|#\s*noqa:\s*S\d+|eslint-disable[\w-]*\s+[^\n]*\bsecurity\/|@SuppressWarnings\(\s*"[^"]*(?:security|SQL_INJECTION|find-sec-bugs)|#\s*semgrep:\s*ignore|\bNOSONAR\b|#\s*pragma:\s*allowlist\s+secret/i,
  ],
  // A validation pattern that accepts anything no longer validates.
  [
    'pattern-matches-anything',
    /\b(re\.compile|re\.(?:match|fullmatch|search)|RegExp|Regex|Pattern\.compile)\s*\(\s*r?["'`]\^?\.[*+]\$?["'`]|=\s*\/\^?\.\*\$?\/[a-z]*\s*[;,)]/,
  ],
  // A secret stored so that it can be read while the device is locked, by anything on it.
  ['keychain-always-readable', /\bkSecAttrAccessibleAlways(ThisDeviceOnly)?\b/],
  // Cookies sent on requests from other sites (CSRF) by choice.
  [
    'cross-site-cookies',
    /\bsame_?site\s*[:=]\s*['"]?none\b|SameSite=None|SESSION_COOKIE_SAMESITE\s*=\s*(None|['"]None)/i,
  ],
  [
    'tls-off',
    /NODE_TLS_REJECT_UNAUTHORIZED['"]?\]?\s*=\s*['"]?0|_create_unverified_context|CERT_NONE|VERIFY_NONE|verify_peer\s*=>\s*false|CURLOPT_SSL_VERIFY(PEER|HOST)\s*,\s*(0|false)/,
  ],
  // A secret drawn from a generator made for simulations, not secrets, can be predicted.
  [
    'guessable-secret',
    /\b\w{0,40}?(token|secret|password|passwd|nonce|salt|otp|api_?key|session_?id|reset_?code)\w{0,40}\s*[:=][^\n]{0,200}\b(Math\.random|random\.random|random\.randint|random\.choice|mt_rand|rand\(|new Random\()/i,
  ],
  // Cross-site request forgery protection switched off for a view, a controller or the app.
  [
    'csrf-off',
    /@csrf_exempt|\bcsrf_exempt\(|skip_forgery_protection|skip_before_action\s+:verify_authenticity_token|protect_from_forgery\s+(except|with:\s*:null_session)|\.csrf\(\)\.disable\(\)|csrf\s*:\s*false/,
  ],
  // Tokens signed with a key written into the code: anyone who reads the code can sign them.
  [
    'literal-signing-key',
    /\b(jwt\.(sign|encode)|createHmac\s*\(\s*['"]\w+['"]|hmac\.new|JWT\.encode|Jwts\.builder\(\)[^\n]{0,200}signWith)\s*\(?[^\n]{0,200}?,\s*['"][^'"]{1,40}['"]/,
  ],
  // Ciphers broken or without diffusion: DES, RC4, RC2, and ECB mode of any cipher.
  [
    'weak-cipher',
    /['"](des|des3|des-ede3?|rc4|rc2|bf)(-[a-z0-9]+)?['"]|\b(DES|DES3|ARC4|RC4|Blowfish)\.new\s*\(|MODE_ECB|['"][a-z0-9-]*-ecb['"]|['"](AES|DES|DESede)\/ECB/i,
  ],
  // XML parsers told to expand entities or fetch from the network read files and URLs an input names.
  [
    'xml-entities-on',
    /resolve_entities\s*=\s*True|no_network\s*=\s*False|LIBXML_NOENT|setExpandEntityReferences\s*\(\s*true|external-(general|parameter)-entities['"]\s*,\s*true|FEATURE_SECURE_PROCESSING\s*,\s*false/,
  ],
  [
    'token-unverified',
    /verify_signature['"]?\s*:\s*False|verify\s*:\s*false[^\n]{0,40}jwt|ignoreExpiration\s*:\s*true/i,
  ],
  [
    'weak-password-hash',
    /\b(md5|sha1)\b[^\n]{0,60}\b(password|passwd)\b|\b(password|passwd)\b[^\n]{0,60}\b(md5|sha1)\b/i,
  ],
  [
    'cookie-protection-off',
    /httpOnly\s*:\s*false|\bsecure\s*:\s*false|SESSION_COOKIE_(SECURE|HTTPONLY)\s*=\s*False|CSRF_COOKIE_SECURE\s*=\s*False/i,
  ],
  ['any-origin-with-credentials', /origin\s*:\s*true[\s\S]{0,80}credentials\s*:\s*true/],
];

/** The home or root directory, as code names it. */
const HOME_OR_ROOT =
  /expanduser\(\s*['"]~\/?['"]\s*\)|os\.homedir\(\)|process\.env\.HOME\b|Path\.home\(\)|os\.UserHomeDir\(\)|ENV\[['"]HOME['"]\]|Dir\.home|getenv\(\s*['"]HOME['"]\s*\)|Getenv\(\s*"HOME"\s*\)|^\s*['"](\/|~|~\/|\/home|\/Users)['"]\s*[,)]/;
const RECURSIVE_DELETE =
  /\b(rmtree|rmSync|rmdirSync|remove_dir_all|RemoveAll|rimraf|rm_rf|rm_r|deleteRecursively|deleteDirectory|FileUtils\.rm_rf|fs\.rm|promises\.rm)\s*\(([^\n]*)/g;

/** Files whose content runs later without anyone asking, as a string literal of code names them. */
const RUNS_LATER_PATH =
  /(\.bashrc|\.zshrc|\.bash_profile|\.profile|\.zprofile|\.ssh\/authorized_keys|\/etc\/cron|\/var\/spool\/cron|\.config\/systemd|\.config\/autostart|LaunchAgents|\/etc\/profile|\.pth|sitecustomize\.py)\b/;
/** String literals up to 400 characters: bounded, so a long line cannot make the search quadratic. */
const STRING_LITERAL = /(['"`])([^'"`\n]{1,400})\1/g;

function namesRunsLaterFile(code: string): boolean {
  for (const literal of code.matchAll(STRING_LITERAL)) if (RUNS_LATER_PATH.test(literal[2]!)) return true;
  return false;
}
const FILE_WRITE =
  /\b(appendFile|appendFileSync|writeFile|writeFileSync|createWriteStream|write_text|File\.write|File\.open|fopen|file_put_contents|os\.WriteFile|OpenFile)\s*\(|\bopen\s*\((?:[^()\n]|\([^()\n]*\))*,\s*['"][aw]\+?['"]/;

const DNS_LOOKUP =
  /\b(gethostbyname|getaddrinfo|gethostbyname_ex|dns\.(resolve\w*|lookup)|LookupHost|LookupIP|LookupTXT|Resolv\.getaddress|InetAddress\.getByName|dig|nslookup)\s*\(/;
/** Reads of secrets in code: secret-named environment variables and credential files. */
const SECRET_IN_CODE =
  /(environ(\.get)?\s*[[(]\s*['"]|getenv\(\s*['"]|Getenv\(\s*"|process\.env\.|process\.env\[['"]|ENV\[['"])[A-Z_]*(KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIALS?)|\.netrc|\.ssh\/|\.aws\/credentials|\.npmrc|\.pgpass/;

/** Mining programs and their pool protocol. */
const MINER =
  /\b(xmrig|xmr-stak|cpuminer|minerd|ethminer|nbminer|t-rex|lolminer|phoenixminer|cgminer|bfgminer)\b|stratum\+(tcp|ssl):\/\//i;

/** `name = …`, `name := …`, `$name = …`, `let/const/var name = …`: the name a line assigns. */
const ASSIGNED = /^\s*(?:(?:let|const|var|my|local)\s+)?(\$?[A-Za-z_]\w*)(?:\s*,\s*_)?\s*:?=(?!=)/;
/** At most this many variables are followed from their sources, so the search stays linear. */
const MAX_TAINTED = 32;

/**
 * The variables a text assigns from a source (`cmd = request.GET.get('cmd')`,
 * `home, _ := os.UserHomeDir()`), followed one step: what is assigned from them is tainted too.
 * Code that moves the value through a name does what it would do with the value itself.
 */
function taintedNames(lines: readonly string[], source: RegExp): RegExp | undefined {
  const names: string[] = [];
  let mention: RegExp | undefined;
  for (const line of lines) {
    const name = ASSIGNED.exec(line)?.[1];
    if (name === undefined || names.length >= MAX_TAINTED) continue;
    const value = line.slice(line.search(/:?=/) + 1);
    if (source.test(value) || mention?.test(value) === true) {
      names.push(name);
      mention = mentionOf(names, '');
    }
  }
  return names.length === 0 ? undefined : mentionOf(names, 'g');
}

/** A pattern for any of `names` as a whole identifier (a `$` is part of a PHP name). */
function mentionOf(names: readonly string[], flags: string): RegExp {
  const alternatives = names.map((name) => name.replace(/\$/g, '\\$')).join('|');
  return new RegExp(`(^|[^\\w$])(${alternatives})\\b`, flags);
}

/** The first position in `line` where `pattern` (global) matches, or -1; its last, for `last`. */
function position(line: string, pattern: RegExp, last: boolean): number {
  let found = -1;
  pattern.lastIndex = 0;
  for (const match of line.matchAll(pattern)) {
    found = match.index! + (match[1]?.length ?? 0);
    if (!last) break;
  }
  return found;
}

export function judgeCodeHazards(inserted: string, removed: string, path = ''): Finding[] {
  const findings: Finding[] = [];
  const added = (pattern: RegExp) => pattern.test(inserted) && !pattern.test(removed);
  const lines = inserted.split('\n');
  const requestNames = taintedNames(lines, REQUEST_SOURCE);
  // Ruby, Perl, PHP and shell run a backquoted string; JavaScript's backquotes are templates.
  const backquotesRun = /\.(rb|pl|pm|php|sh|bash)$/.test(path);

  // Linear in the text: each line's sources and calls are found once (no rescans per call).
  const removedLines = new Set(removed.split('\n').map((line) => line.trim()));
  for (const line of lines) {
    const sourced =
      REQUEST_SOURCE.test(line) || (requestNames !== undefined && position(line, requestNames, false) >= 0);
    if (!sourced || removedLines.has(line.trim())) continue;
    const lastSource = Math.max(
      position(line, REQUEST_SOURCES, true),
      requestNames === undefined ? -1 : position(line, requestNames, true),
    );
    // Ruby calls any method named by a string: `obj.send(params[:op])`.
    const rubySend = /\.rb$/.test(path) ? /\b(send|public_send|__send__)\s*\(/.exec(line) : null;
    if (rubySend !== null && rubySend.index < lastSource) {
      findings.push({ code: `content.runs-request-input:${rubySend[1]}`, deny: RISK.deny, onTask: 0.1 });
      continue;
    }
    if (backquotesRun && /`[^`\n]*(#\{|\$\{?\w)[^`\n]*`/.test(line)) {
      findings.push({ code: 'content.runs-request-input:backquotes', deny: RISK.deny, onTask: 0.1 });
      continue;
    }
    for (const call of line.matchAll(RUNS_OR_OPENS)) {
      // The request's data must be in the call's arguments, so after the call's name.
      if (call.index! >= lastSource) break;
      const qualified = line.slice(Math.max(0, call.index! - 12), call.index! + call[0].length);
      if (SAFE_CALL.test(qualified) || (call[1] === 'load' && SAFE_LOADER.test(line))) continue;
      const file = FILE_SINK.test(call[1]!);
      findings.push(
        file
          ? { code: `content.request-input-to-file:${call[1]}`, deny: RISK.askHigh, onTask: 0.3 }
          : { code: `content.runs-request-input:${call[1]}`, deny: RISK.deny, onTask: 0.1 },
      );
      break;
    }
    if (/\.php$/.test(path))
      for (const include of line.matchAll(PHP_INCLUDE)) {
        if (include.index! >= lastSource) break;
        findings.push({ code: `content.runs-request-input:${include[1]}`, deny: RISK.deny, onTask: 0.1 });
        break;
      }
    const method = INPUT_METHOD_SINK.exec(line);
    if (method !== null && method.index > line.search(REQUEST_SOURCE))
      findings.push(
        method[1] === 'constantize' || method[1] === 'safe_constantize'
          ? { code: `content.runs-request-input:${method[1]}`, deny: RISK.deny, onTask: 0.1 }
          : { code: `content.request-input-to:${method[1]}`, deny: RISK.askHigh, onTask: 0.3 },
      );
    for (const [sink, pattern] of INPUT_SINKS)
      for (const call of line.matchAll(pattern)) {
        if (call.index! >= lastSource) break;
        // `res.redirect(safeNext(req.query.next))`: a checking call between the sink and the input
        // hands the sink what the check let through.
        if (CHECKING_CALL.test(line.slice(call.index! + call[0].length, lastSource))) break;
        findings.push({ code: `content.request-input-to:${sink}`, deny: RISK.askHigh, onTask: 0.3 });
        break;
      }
    for (const call of line.matchAll(NETWORK_CALL)) {
      if (call.index! >= lastSource) break;
      findings.push({ code: `content.request-input-to-network:${call[1]}`, deny: RISK.askHigh, onTask: 0.3 });
      break;
    }
    if (SQL_CONCATENATION.test(line))
      findings.push({ code: 'content.request-input-to-sql', deny: RISK.askHigh, onTask: 0.3 });
  }

  // A query that took its values apart, rewritten to join them into its text: the placeholders were
  // the safeguard, whatever the values' source.
  if (
    PARAMETERISED_QUERY.test(removed) &&
    SQL_CONCATENATION.test(inserted) &&
    !SQL_CONCATENATION.test(removed)
  )
    findings.push({ code: 'content.drops-safeguard:query-parameters', deny: RISK.askHigh, onTask: 0.3 });

  // A secret generator swapped for one made for simulations: what it makes can be predicted.
  if (CSPRNG.test(removed) && !CSPRNG.test(inserted) && WEAK_RANDOM.test(inserted))
    findings.push({ code: 'content.weakens:predictable-random', deny: RISK.askHigh, onTask: 0.3 });
  const before = new Set([...removed.matchAll(SAFEGUARD)].map((match) => match[1]!.toLowerCase()));
  const after = new Set([...inserted.matchAll(SAFEGUARD)].map((match) => match[1]!.toLowerCase()));
  const dropped = [...before].find((safeguard) => !after.has(safeguard));
  if (dropped !== undefined)
    findings.push({ code: `content.drops-safeguard:${dropped}`, deny: RISK.askHigh, onTask: 0.3 });

  for (const [name, pattern] of WEAKENING)
    if (added(pattern)) findings.push({ code: `content.weakens:${name}`, deny: RISK.askHigh, onTask: 0.3 });

  const homeNames = taintedNames(lines, HOME_OR_ROOT);
  for (const call of inserted.matchAll(RECURSIVE_DELETE))
    if (
      HOME_OR_ROOT.test(call[2] ?? '') ||
      (homeNames !== undefined && position(call[2] ?? '', homeNames, false) >= 0)
    ) {
      findings.push({
        code: `content.deletes-home-or-root:${call[1]}`,
        destructive: RISK.denyHigh,
        onTask: 0.05,
      });
      break;
    }

  if (FILE_WRITE.test(inserted) && namesRunsLaterFile(inserted) && !namesRunsLaterFile(removed))
    findings.push({ code: 'content.writes-runs-later-file', deny: RISK.denyHigh, onTask: 0.05 });

  // Principle 3 in code: a name built from a secret and resolved sends the secret to whoever
  // answers for that domain.
  if (added(DNS_LOOKUP) && SECRET_IN_CODE.test(inserted))
    findings.push({ code: 'content.secret-to-dns', exfil: RISK.denyHigh, onTask: 0.05 });

  if (added(RUNS_ENCODED)) findings.push({ code: 'content.runs-encoded-code', deny: RISK.deny, onTask: 0.1 });

  if (added(MINER)) findings.push({ code: 'content.miner', destructive: RISK.denyHigh, onTask: 0.02 });
  return findings;
}

const MINER_NAME =
  /^(xmrig|xmr-stak|cpuminer|minerd|ethminer|nbminer|t-rex|lolminer|phoenixminer|cgminer|bfgminer)$/i;

/**
 * Whether a command runs a cryptocurrency miner: a miner program (by path or as a container
 * image) or any program given a mining pool's address. Naming one as data (`grep xmrig log`) is not.
 */
export function runsMiner(program: string, args: readonly string[]): boolean {
  const name = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/:[^:]*$/, '');
  if (MINER_NAME.test(name(program))) return true;
  if (args.some((arg) => /stratum\+(tcp|ssl):\/\//i.test(arg))) return true;
  return (
    /^(docker|podman|nerdctl)$/.test(program) &&
    args.includes('run') &&
    args.some((arg) => !arg.startsWith('-') && MINER_NAME.test(name(arg)))
  );
}
