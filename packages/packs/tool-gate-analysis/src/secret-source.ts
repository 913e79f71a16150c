import { tokenShapeKind } from '@arbiter/decision';
import { RISK } from './risk-scale.js';

/**
 * Where secrets live: credential files and directories, and secret-looking literals. A secret
 * source alone is a read; reaching a network sink it becomes a flow (see shell-flow.ts).
 */

/**
 * A browser profile's session and password stores: a cookie is a logged-in session, so reading the
 * store is reading every site's credential (Chromium's `Cookies`, `Login Data` and `Web Data`,
 * Firefox's `cookies.sqlite`, `logins.json` and its key databases, Safari's binary cookies).
 */
const BROWSER_SESSION_STORES: readonly RegExp[] = [
  /(^|\/)\.mozilla\/.*\/(logins\.json|key[34]\.db|cookies\.sqlite|formhistory\.sqlite)$/,
  /(^|\/)(Login Data|Cookies|Web Data)$/,
  /(^|\/)Cookies\.binarycookies$/,
];

/**
 * Secrets mounted for programs (Docker and Kubernetes secrets), cluster credentials (kubeconfigs,
 * a control plane's own), cryptocurrency wallets and desktop keyrings: key material wherever it is.
 */
const MOUNTED_AND_WALLET_KEYS: readonly RegExp[] = [
  /^\/(var\/)?run\/secrets\//,
  /(^|\/)(kubeconfig|admin\.conf|kubelet\.conf|super-admin\.conf)$/,
  /^\/etc\/kubernetes\/pki\//,
  /(^|\/)wallet\.dat$|(^|\/)\.(bitcoin|ethereum|electrum|monero)\/|(^|\/)keystore\/UTC--/,
  /(^|\/)\.local\/share\/keyrings\/|\.keyring$/,
];

/**
 * Where command-line clients keep the session of the account they are logged in to (`hub`,
 * `glab`, `doctl`, `rclone`, Netlify, Heroku, Vercel, Wrangler, ngrok, Stripe, Sentry, Snyk, 1Password,
 * gopass, Pulumi, Terraform Cloud, Oracle Cloud, Gradle's and Maven's publishing tokens, mail
 * clients' passwords, FileZilla's saved servers).
 */
const LOGGED_IN_CLIENT_STATE =
  /(^|\/)\.config\/(gh|hub|glab-cli|doctl|rclone|netlify|heroku|configstore|ngrok|stripe|op|gopass|sentry|snyk|railway|fly|filezilla)(\/|$)|(^|\/)\.(vercel|wrangler|fly|netlify|ngrok2|railway|pulumi|oci)\/|(^|\/)\.(terraformrc|sentryclirc|msmtprc|fetchmailrc|dockercfg|vault-token)$|(^|\/)\.gradle\/gradle\.properties$/;

/** The home directory as paths spell it. */
const HOME = '(?:^~|^\\/home\\/[^/]+|^\\/root|^\\/Users\\/[^/]+)';

/** Tokens tools keep in the home: each works as the user wherever it is taken, like a key. */
const HOME_TOKEN_STORES: readonly RegExp[] = [
  new RegExp(`${HOME}\\/\\.vault-token$`),
  new RegExp(`${HOME}\\/\\.aws\\/(sso|cli)\\/cache\\/`),
  new RegExp(`${HOME}\\/\\.pulumi\\/credentials\\.json$`),
  new RegExp(`${HOME}\\/\\.cargo\\/credentials(\\.toml)?$`),
  new RegExp(`${HOME}\\/\\.(config\\/)?composer\\/auth\\.json$`),
  new RegExp(`${HOME}\\/\\.config\\/(doctl|glab-cli|hub|heroku|netlify|vercel|railway|flyctl|op)\\/`),
  new RegExp(`${HOME}\\/\\.(fly|netlify)\\/`),
];

/**
 * Tool settings in the home that hold registry or storage credentials beside ordinary settings:
 * reading one is asked (the project's own copies of such files are not these).
 */
const HOME_CREDENTIAL_SETTINGS: readonly RegExp[] = [
  new RegExp(`${HOME}\\/\\.(yarnrc\\.yml|s3cfg|boto|terraformrc|bundle\\/config)$`),
  new RegExp(`${HOME}\\/\\.m2\\/settings(-security)?\\.xml$`),
  new RegExp(`${HOME}\\/\\.gradle\\/gradle\\.properties$`),
  new RegExp(`${HOME}\\/\\.config\\/(rclone\\/rclone\\.conf|helm\\/repositories\\.yaml)$`),
];

/** A host's own private keys: its SSH identity and its TLS certificates' keys. */
const HOST_KEYS: readonly RegExp[] = [
  /^\/etc\/ssh\/ssh_host_[a-z0-9]+_key$/,
  /^\/etc\/(ssl\/private|letsencrypt\/(live|archive))\//,
];

const CREDENTIAL_PATH_PATTERNS: readonly RegExp[] = [
  ...MOUNTED_AND_WALLET_KEYS,
  ...HOST_KEYS,
  ...HOME_TOKEN_STORES,
  ...HOME_CREDENTIAL_SETTINGS,
  LOGGED_IN_CLIENT_STATE,
  /(^|\/)\.ssh(\/|$)/,
  /(^|\/)\.aws\/(credentials|config)$|(^|\/)\.aws(\/|$)/,
  /(^|\/)\.config\/gcloud(\/|$)/,
  /(^|\/)\.azure(\/|$)/,
  /(^|\/)\.kube\/config$/,
  /(^|\/)\.docker\/config\.json$/,
  /(^|\/)\.gnupg(\/|$)/,
  /(^|\/)\.netrc$|(^|\/)_netrc$/,
  /(^|\/)\.npmrc$|(^|\/)\.pypirc$|(^|\/)\.gem\/credentials$/,
  /(^|\/)\.git-credentials$/,
  /(^|\/)\.config\/gh\/hosts\.yml$/,
  /(^|\/)\.password-store(\/|$)/,
  /(^|\/)\.env(\.[A-Za-z0-9_-]+)?$/,
  /(^|\/)[^/]*\.(pem|key|p12|pfx|jks|keystore|kdbx|asc|gpg|ovpn)$/,
  /(^|\/)id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/,
  /(^|\/)(credentials|secrets?|passwords?)(\.(json|ya?ml|toml|txt|ini|csv))?$/i,
  /(^|\/)\.?(token|api[-_]?key)s?(\.(json|txt))?$/i,
  /^\/etc\/(shadow|gshadow|sudoers)$/,
  /^\/proc\/[^/]+\/environ$/,
  /(^|\/)Library\/Keychains(\/|$)/,
  ...BROWSER_SESSION_STORES,
  /(^|\/)\.terraform\.d\/credentials\.tfrc\.json$/,
  /(^|\/)terraform\.tfstate$/,
];

/** Example and template files are documentation, not secrets. */
const EXAMPLE_FILE = /\.(example|sample|template|dist|tpl)(\.[a-z]+)?$/i;
const NOT_A_SECRET = { test: (path: string) => EXAMPLE_FILE.test(path) || /\.pub$/.test(path) };

/** Example and template files (`.env.example`, `oauth.example.json`) show a secret's shape, not a secret. */
export function isExampleFile(path: string): boolean {
  return EXAMPLE_FILE.test(path);
}

/** Keys and cloud or login credentials: reading one outside the workspace is itself a leak to the model. */
const KEY_MATERIAL_PATTERNS: readonly RegExp[] = [
  ...MOUNTED_AND_WALLET_KEYS,
  /(^|\/)\.ssh\/(?!known_hosts$|config$)[^/]+$/,
  /(^|\/)id_(rsa|dsa|ecdsa|ed25519)$/,
  /\.(pem|key|p12|pfx|jks|keystore|kdbx)$/,
  /(^|\/)\.aws\/credentials$/,
  /(^|\/)\.config\/gcloud\/.*(credentials|tokens|\.db|\.json)/,
  /(^|\/)\.azure\/.*(token|profile)/,
  /(^|\/)\.kube\/config$/,
  /(^|\/)\.docker\/config\.json$/,
  /(^|\/)\.gnupg\//,
  /(^|\/)(\.netrc|_netrc|\.git-credentials|\.pypirc)$/,
  /(^|\/)\.config\/gh\/hosts\.yml$/,
  /(^|\/)\.password-store\//,
  /^\/etc\/(shadow|gshadow)$/,
  ...HOST_KEYS,
  ...HOME_TOKEN_STORES,
  /^\/proc\/[^/]+\/environ$/,
  /(^|\/)Library\/Keychains\//,
  ...BROWSER_SESSION_STORES,
];

/**
 * What a live secret looks like (a private key's header, a cloud or service token's prefix). A
 * search for one, anywhere, prints the secrets it finds.
 */
export const SECRET_SHAPE =
  /PRIVATE KEY|BEGIN [A-Z ]*KEY|\bAKIA|\bASIA|gh[pousr]_|github_pat_|xox[abprs]-|sk_live_|rk_live_|sk-(proj-|ant-)?[A-Za-z0-9]|AIza|glpat-|npm_[A-Za-z0-9]/;

/** Cloud instance metadata services: they hand out the instance's credentials to any local caller. */
const METADATA_HOSTS =
  /^(169\.254\.169\.254|169\.254\.170\.2|metadata\.google\.internal|metadata|100\.100\.100\.200|\[?fd00:ec2::254\]?)$/i;

export function isCloudMetadataHost(host: string): boolean {
  return METADATA_HOSTS.test(host);
}

/**
 * Loopback ports of services that hold the machine's secrets or control it: the Docker engine's
 * API (2375, 2376, 4243), etcd (2379), a Kubernetes API server (6443) and kubelet (10250, 10255),
 * Vault (8200) and Consul (8500). A request to one is a read of secrets or a command to the host.
 */
const CONTROL_PLANE_PORTS = new Set([
  '2375',
  '2376',
  '4243',
  '2379',
  '6443',
  '10250',
  '10255',
  '8200',
  '8500',
]);

export function isLocalControlPlanePort(port: string): boolean {
  return CONTROL_PLANE_PORTS.has(port);
}

/**
 * One regular expression per flag set for a list of patterns: a path is tested once against the
 * alternation rather than once per pattern (every argument of every command is tested). Any
 * pattern matching is the alternation matching, so the lists stay readable one pattern a line.
 */
function anyOf(patterns: readonly RegExp[]): { test: (text: string) => boolean } {
  const byFlags = new Map<string, string[]>();
  for (const pattern of patterns)
    byFlags.set(pattern.flags, [...(byFlags.get(pattern.flags) ?? []), pattern.source]);
  const combined = [...byFlags].map(
    ([flags, sources]) => new RegExp(sources.map((source) => `(?:${source})`).join('|'), flags),
  );
  return { test: (text) => combined.some((pattern) => pattern.test(text)) };
}

const KEY_MATERIAL = anyOf(KEY_MATERIAL_PATTERNS);
const CREDENTIAL_PATH = anyOf(CREDENTIAL_PATH_PATTERNS);

export function isKeyMaterialPath(path: string): boolean {
  if (NOT_A_SECRET.test(path)) return false;
  return KEY_MATERIAL.test(path);
}

/**
 * P(exfiltration) of reading a credential file into the agent's context (which a hosted model
 * receives): key material outside the workspace is a leak, other secrets are a question.
 */
export function credentialReadRisk(path: string, outsideWorkspace: boolean): number {
  if (isKeyMaterialPath(path)) return outsideWorkspace ? RISK.deny : RISK.askLow;
  return outsideWorkspace ? RISK.ask : RISK.askLow;
}

export function isCredentialPath(path: string): boolean {
  if (NOT_A_SECRET.test(path)) return false;
  return CREDENTIAL_PATH.test(path);
}

/**
 * Names the secret kind when a literal looks like a credential (a provider token, a key block).
 * The shapes are the decision client's redaction catalogue, so what it redacts before a call
 * leaves the machine and what the gate calls a secret are one list (issue 27).
 */
export function secretLiteralKind(text: string): string | undefined {
  if (text.length < 16) return undefined;
  return tokenShapeKind(text);
}

/** URL query or user-info members that carry credentials (`?token=…`, `https://user:pass@`). */
export function urlCarriesSecret(url: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/@\s:]+:[^/@\s]+@/i.test(url)) return true;
  // A secret percent-encoded into a query value is sent all the same: a connection string with
  // its password, `NAME=value` for a secret's variable, or a literal key.
  for (const value of decodedQueryValues(url)) {
    if (/\b[a-z][a-z0-9+.-]*:\/\/[^/@\s:]+:[^/@\s]+@/i.test(value)) return true;
    for (const match of value.matchAll(/\b([A-Za-z_][A-Za-z0-9_]*)=\S/g))
      if (isSecretVariableName(match[1]!)) return true;
    if (secretLiteralKind(value) !== undefined) return true;
  }
  if (
    /[?&#](access_?token|api_?key|apikey|token|secret|password|passwd|pwd|auth|key|sig|signature)=[^&\s]{6,}/i.test(
      url,
    )
  )
    return true;
  return secretLiteralKind(url) !== undefined;
}

/** The query values of a URL that percent-decoding changes, decoded. */
function decodedQueryValues(url: string): string[] {
  const query = url.indexOf('?');
  if (query < 0) return [];
  const values: string[] = [];
  for (const part of url.slice(query + 1).split(/[&#]/)) {
    const raw = part.slice(part.indexOf('=') + 1).replace(/\+/g, ' ');
    // A value sent as it is (`?text=postgres://u:p@h/db`) carries what it says, as an encoded one does.
    if (!raw.includes('%')) {
      values.push(raw);
      continue;
    }
    try {
      values.push(decodeURIComponent(raw));
    } catch {
      // A malformed escape is not a value anything decodes: nothing is carried there.
    }
  }
  return values;
}

/** A variable name that by convention holds a secret (`$GITHUB_TOKEN`, `$AWS_SECRET_ACCESS_KEY`). */
export function isSecretVariableName(name: string): boolean {
  // Connection strings (`DATABASE_URL`, `*_DSN`) carry the password inside them.
  return /(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY|ACCESS_KEY|CREDENTIALS?|AUTH|DATABASE_URL|_DSN$|CONNECTION_STRING|^(REDIS|MONGO(DB)?|AMQP|POSTGRES(QL)?|MYSQL)_(URL|URI)$)/i.test(
    name,
  );
}
