import { redactionMarker } from './redaction-marker.js';
import { isSecretName } from './secret-name.js';
import { isRedactableBareValue, isRedactableValue } from './secret-value.js';

/**
 * One pattern of the redaction catalogue. Every pattern starts with a literal prefix, or is pinned by a
 * look-behind to the start of a run of token characters, or starts at a separator (`:`, `=`, `-`) and
 * looks back a bounded distance for the name; none has nested ambiguous quantifiers. Each position is
 * thus attempted at most once with bounded backtracking: the scan stays linear (tested on 1 MB
 * adversarial inputs).
 */
export interface SecretRule {
  /** Names the kind of secret in the marker: `[REDACTED:<kind>]`. */
  readonly kind: string;
  readonly pattern: RegExp;
  /** A cheap test that must pass before `pattern` runs: most text has none of these and skips the rule. */
  readonly trigger?: RegExp;
  /** Builds the replacement of one match; returning the match unchanged keeps it. */
  readonly replace: (match: string, ...groups: string[]) => string;
}

/** Token characters: a token pattern must not start in the middle of a run of them. */
const START = '(?<![A-Za-z0-9_-])';
const END = '(?![A-Za-z0-9_-])';

function token(kind: string, prefix: string, body: string, accept?: (match: string) => boolean): SecretRule {
  const marker = redactionMarker(kind);
  return {
    kind,
    trigger: new RegExp(prefix),
    pattern: new RegExp(`${START}${prefix}${body}`, 'g'),
    replace: (match) => (accept === undefined || accept(match) ? marker : match),
  };
}

const hasDigit = (text: string) => /[0-9]/.test(text);

/** Provider tokens with a recognisable shape. Anthropic precedes OpenAI: both start with `sk-`. */
const providerTokens: SecretRule[] = [
  token('aws-access-key-id', '(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])', `[A-Z0-9]{16}(?![A-Za-z0-9])`),
  token('google-api-key', 'AIza', `[0-9A-Za-z_-]{35}${END}`),
  token('google-oauth-client-secret', 'GOCSPX-', `[A-Za-z0-9_-]{28}${END}`),
  token('google-oauth-token', 'ya29\\.', '[0-9A-Za-z_-]{20,}'),
  token('github-token', 'gh[opsur]_', `[A-Za-z0-9]{36,255}${END}`),
  token('github-token', 'github_pat_', `[A-Za-z0-9_]{22,255}${END}`),
  token('gitlab-token', 'gl(?:pat|dt|rt|ptt|cbt|oas|ft|imt|agent)-', '[A-Za-z0-9_-]{20,}'),
  token('atlassian-token', 'AT(?:BB|ATT|CTT)', '[A-Za-z0-9_=.-]{24,}'),
  token('anthropic-key', 'sk-ant-', '[A-Za-z0-9_-]{20,}'),
  token('openai-key', 'sk-', '(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}', hasDigit),
  token('huggingface-token', 'hf_', `[A-Za-z0-9]{30,}${END}`),
  token('slack-token', 'xox[abposre]-', '[A-Za-z0-9-]{10,}'),
  token('slack-token', 'xapp-', '[0-9]-[A-Za-z0-9-]{10,}'),
  token('discord-token', '[MNO]', `[A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,}${END}`),
  token('stripe-key', '(?:sk|rk)_(?:live|test)_', '[A-Za-z0-9]{16,}'),
  token('stripe-webhook-secret', 'whsec_', '[A-Za-z0-9+/=]{24,}'),
  token('twilio-api-key', 'SK', '[0-9a-f]{32}(?![A-Za-z0-9])'),
  token('sendgrid-key', 'SG\\.', `[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}${END}`),
  token('npm-token', 'npm_', '[A-Za-z0-9]{36}(?![A-Za-z0-9])'),
  token('pypi-token', 'pypi-', '[A-Za-z0-9_-]{50,}'),
  token('dockerhub-token', 'dckr_pat_', '[A-Za-z0-9_-]{20,}'),
  token('jwt', 'eyJ', '[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*'),
];

const webhookUrls: SecretRule[] = [
  {
    kind: 'slack-webhook',
    trigger: /hooks\.slack\.com/,
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]+/g,
    replace: () => redactionMarker('slack-webhook'),
  },
  {
    kind: 'discord-webhook',
    trigger: /\/api\/webhooks\//,
    pattern: /https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api\/webhooks\/[0-9]+\/[A-Za-z0-9_-]+/g,
    replace: () => redactionMarker('discord-webhook'),
  },
];

const headers: SecretRule[] = [
  {
    // `Authorization: Bearer …`, `"Authorization": "Basic …"`, `-H 'Proxy-Authorization: token …'`.
    kind: 'authorization',
    trigger: /authorization/i,
    pattern:
      /\b((?:proxy-)?authorization\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:bearer|basic|digest|token|negotiate|ntlm)[ \t]+)([A-Za-z0-9._~+/-]{6,}=*)/gi,
    replace: (_match, prefix = '', credential = '') =>
      credential.startsWith('[REDACTED:') ? _match : `${prefix}${redactionMarker('authorization')}`,
  },
  {
    // A bearer token outside a header line (`curl … Bearer abc…`, logs). Prose has no digits in the next word.
    kind: 'bearer-token',
    trigger: /bearer/i,
    pattern: /\b(bearer[ \t]+)([A-Za-z0-9._~+/-]{16,}=*)/gi,
    replace: (match, prefix = '', credential = '') =>
      hasDigit(credential) ? `${prefix}${redactionMarker('bearer-token')}` : match,
  },
];

const cloudSecrets: SecretRule[] = [
  {
    kind: 'aws-secret-access-key',
    trigger: /secret/i,
    pattern:
      /\b((?:aws_?)?secret_?(?:access_?)?key["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    replace: (_match, prefix = '') => `${prefix}${redactionMarker('aws-secret-access-key')}`,
  },
  {
    // Azure storage / service bus / ADO.NET connection strings and SAS signatures.
    kind: 'azure-connection-string',
    trigger: /=/,
    pattern: /=(?<=(?:^|[;\s"'])(AccountKey|SharedAccessKey|SharedSecretValue|Password)=)([^;"'\s]+)/gim,
    // The marker names what was found: only Azure's own key names make an Azure connection string;
    // `Password=` belongs to any key=value connection string (ADO.NET, ODBC, a log line).
    replace: (match, name = '', value = '') =>
      isRedactableValue(value, name)
        ? `=${redactionMarker(name.toLowerCase() === 'password' ? 'connection-string-password' : 'azure-connection-string')}`
        : match,
  },
  {
    kind: 'azure-sas-signature',
    trigger: /sig=/,
    pattern: /([?&]sig=)([A-Za-z0-9%+/=]{16,})/g,
    replace: (_match, prefix = '') => `${prefix}${redactionMarker('azure-sas-signature')}`,
  },
];

// Starts at `://` whatever the scheme. The user part excludes brackets so that an earlier marker
// (`[REDACTED:github-token]@host`) is not taken for `user:password`.
const urlCredentials: SecretRule = {
  kind: 'url-password',
  trigger: /:\/\//,
  pattern: /(:\/\/[^\s:/?#@"'<>[\]]{1,256}:)([^\s/?#@"'<>]{1,256})@/g,
  replace: (match, prefix = '', password = '') =>
    isRedactableValue(password, '') ? `${prefix}${redactionMarker('url-password')}@` : match,
};

/** Credentials given to command-line tools: `curl -u user:password`, `--password value`, `--api-key=value`. */
const commandLineCredentials: SecretRule[] = [
  {
    kind: 'cli-password',
    trigger: /(?:^|\s)(?:-u|--user)[ \t]/,
    pattern: /-(?<=(?:^|\s)-)((?:u|-user)[ \t]+["']?[^\s:"']{1,256}:)([^\s"']{1,256})/gm,
    replace: (match, prefix = '', password = '') =>
      isRedactableValue(password, '') ? `-${prefix}${redactionMarker('cli-password')}` : match,
  },
  {
    kind: 'cli-password',
    trigger: /(?:^|\s)--?[A-Za-z]/,
    pattern: /-(?<=(?:^|\s)-)(-?[A-Za-z][\w-]{0,60})(=|[ \t]+)([^\s"'`;|&<>$-][^\s"'`;|&<>]*)/gm,
    replace: (match, flag = '', separator = '', value = '') =>
      isSecretName(flag) && isRedactableValue(value, flag)
        ? `-${flag}${separator}${redactionMarker('cli-password')}`
        : match,
  },
];

/** `?access_token=…`, `&api_key=…` in URLs and query strings. */
const queryParameterSecret: SecretRule = {
  kind: 'url-query-secret',
  trigger: /[?&]/,
  pattern: /([?&])([A-Za-z_][\w.-]{0,80})=([^&#\s"'<>]+)/g,
  replace: (match, separator = '', name = '', value = '') =>
    isSecretName(name) && isRedactableValue(value, name)
      ? `${separator}${name}=${redactionMarker('url-query-secret')}`
      : match,
};

/**
 * Secret-named fields and assignments. The name decides (see `isSecretName`); the value must look like
 * a value rather than a reference or code. Three shapes: a quoted literal after `:`/`=`/`=>`/`:=`
 * (JSON, YAML, code), a shell assignment `[export ]NAME=value`, and an unquoted YAML/INI/header value.
 *
 * These patterns start at the separator and look behind it for the name: attempts then begin only at
 * `:` and `=` rather than at every word, which makes them about ten times faster on ordinary code.
 * Matches (and so replacements) begin at the separator; the name before it stays as it was.
 */
const namedSecrets: SecretRule[] = [
  {
    kind: 'secret-field',
    trigger: /[:=]/,
    pattern:
      /(:=|=>|:|=)(?<=(?<![\w$.-])(?:"([A-Za-z_][\w.-]{0,80})"|'([A-Za-z_][\w.-]{0,80})'|([A-Za-z_][\w.-]{0,80}))[ \t]*(?::=|=>|:|=))([ \t]*)(?:"((?:[^"\\\r\n]|\\.)*)"|'((?:[^'\\\r\n]|\\.)*)')/g,
    replace: (
      match,
      separator = '',
      doubleQuotedName,
      singleQuotedName,
      bareName,
      spaces = '',
      doubleQuoted,
      singleQuoted,
    ) => {
      const name = doubleQuotedName ?? singleQuotedName ?? bareName ?? '';
      const value = doubleQuoted ?? singleQuoted ?? '';
      if (!isSecretName(name) || !isRedactableValue(value, name)) return match;
      const quote = doubleQuoted === undefined ? "'" : '"';
      return `${separator}${spaces}${quote}${redactionMarker('secret-field')}${quote}`;
    },
  },
  {
    // `&` stays inside the value: in .env files it is literal, and cutting there would leak the rest.
    kind: 'secret-assignment',
    trigger: /=/,
    pattern:
      /=(?<=(?:^|[\s;&|(])(export[ \t]+)?([A-Za-z_][A-Za-z0-9_]{0,80})=)([^\s"'`;|()<>$]+)(?=$|[\s;|)])/gm,
    replace: (match, exported, name = '', value = '') => {
      const shellStyle = exported !== undefined || name === name.toUpperCase();
      if (!shellStyle || !isSecretName(name) || !isRedactableValue(value, name)) return match;
      return `=${redactionMarker('secret-assignment')}`;
    },
  },
  {
    kind: 'secret-field',
    trigger: /[:=]/,
    pattern:
      /(:[ \t]+|=[ \t]*)(?<=(?<![\w$.-])([A-Za-z_][\w.-]{0,80})[ \t]*(?::[ \t]+|=[ \t]*))([^\s"'`,;(){}[\]<>=]+)(?=$|[\s,;}\]])/gm,
    replace: (match, separator = '', name = '', value = '') =>
      isSecretName(name) && isRedactableBareValue(value, name)
        ? `${separator}${redactionMarker('secret-field')}`
        : match,
  },
];

/**
 * The providers' token shapes on their own: what a live credential looks like wherever it is
 * written. The tool gate flags a literal by these same rules (`tokenShapeKind`), so what the
 * client redacts and what the gate calls a secret are one list.
 */
export const TOKEN_SHAPE_RULES: readonly SecretRule[] = providerTokens;

/** The kind of the first provider token in `text` (`github-token`, `private-key`, …), if any. */
export function tokenShapeKind(text: string): string | undefined {
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) return 'private-key';
  for (const rule of TOKEN_SHAPE_RULES) {
    if (rule.trigger !== undefined && !rule.trigger.test(text)) continue;
    // The catalogue's patterns are global (they replace every match): each scan starts afresh.
    rule.pattern.lastIndex = 0;
    for (let match = rule.pattern.exec(text); match !== null; match = rule.pattern.exec(text)) {
      // A rule may keep a match that is not a credential (an `sk-` word without a digit).
      if (rule.replace(match[0], ...match.slice(1)) !== match[0]) {
        rule.pattern.lastIndex = 0;
        return rule.kind;
      }
      if (match[0] === '') rule.pattern.lastIndex += 1;
    }
  }
  return undefined;
}

/** The catalogue in the order it is applied: specific shapes first, so markers name the provider. */
export const SECRET_RULES: readonly SecretRule[] = [
  ...headers,
  ...webhookUrls,
  ...providerTokens,
  ...cloudSecrets,
  urlCredentials,
  queryParameterSecret,
  ...commandLineCredentials,
  ...namedSecrets,
];
