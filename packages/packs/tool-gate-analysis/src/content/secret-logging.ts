import type { Finding } from '../finding.js';
import { RISK } from '../risk-scale.js';

/**
 * Issue 27, "changes judged by their consequence": a log is read by more people and systems than
 * the request it records (log shippers, dashboards, support staff, retention for years). A log
 * call that gains a value carrying credentials (whole request headers, bodies, cookies, the
 * process environment, or a value named for a secret) copies those credentials there on every
 * call; a file written with one keeps it on disk where backups and other programs read it. A log
 * call that gains anything else (a status, a duration, an id) records behaviour. Payment-card and
 * identity numbers count as credentials here (PCI DSS forbids them in logs).
 */
const LOG_CALL =
  /\b(?:logger|logging|log|console|winston|pino|bunyan|Log|Logger|slog|zap|logrus|Rails\.logger|app\.logger|current_app\.logger|this\.logger|self\.logger)\s*\.\s*(?:trace|debug|info|warn|warning|error|fatal|critical|log|Printf|Println|Print|Info|Debug|Warn|Error|Infof|Debugf|Errorf|Warnf|exception)\s*\(|\b(?:print|println|printf|puts|pp|fmt\.Print\w*|System\.out\.print\w*|Console\.Write\w*|echo)\s*[( ]|\b(?:write|writelines|writeFile(?:Sync)?|appendFile(?:Sync)?|file_put_contents|fwrite|fputs|fprintf)\s*\(/g;

/** Containers that carry credentials when logged whole: request headers, bodies and cookies, the environment. */
const CREDENTIAL_CONTAINER =
  /\b(?:req|request|ctx\.request|ctx|c\.Request|r)\s*\.\s*(?:headers|body|cookies|Header|rawBody|form|json|data|params|payload)\b(?!\s*[.[])|\b(?:process\.env|os\.environ|System\.getenv\(\s*\)|os\.Environ\(\s*\))(?!\s*[.[])/g;
/** Identifiers of one credential: their last word names it (`user.password`, `accessToken`, `API_KEY`). */
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
const CREDENTIAL_WORD = new Set([
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'authorization',
  'cookie',
  'cookies',
  'credential',
  'credentials',
  'apikey',
  'cvc',
  'cvv',
  'cvv2',
  'ssn',
]);
/** `key` names a credential only after a word that says so (`apiKey`, `private_key`, not `cacheKey`). */
const KEY_QUALIFIER = new Set(['api', 'private', 'secret', 'access', 'signing', 'master', 'encryption']);

function namesCredential(identifier: string): boolean {
  const words = identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  const last = words.at(-1);
  if (last === undefined) return false;
  if (CREDENTIAL_WORD.has(last)) return true;
  const previous = words.at(-2);
  if (last === 'number' && (previous === 'card' || previous === 'security')) return true;
  return last === 'key' && previous !== undefined && KEY_QUALIFIER.has(previous);
}

/** The arguments of each log call in a text, up to its closing parenthesis or the end of the line. */
function loggedArguments(text: string): string[] {
  const found: string[] = [];
  for (const call of text.matchAll(LOG_CALL)) {
    const start = call.index! + call[0].length;
    let depth = 1;
    let end = start;
    while (end < text.length && depth > 0 && end - start < 600) {
      const character = text[end]!;
      if (character === '(' || character === '{' || character === '[') depth++;
      else if (character === ')' || character === '}' || character === ']') depth--;
      else if (character === '\n' && !call[0].endsWith('(')) break;
      end++;
    }
    found.push(text.slice(start, end));
  }
  return found;
}

function loggedCredentials(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const argument of loggedArguments(text)) {
    // Words inside string literals are the message, not a value (`'token refreshed'`); a template's
    // interpolations are values (`${user.password}`).
    const code = argument
      .replace(/\$\{([^}]*)\}/g, '`, $1, `')
      // A Python f-string's fields are values too (`f'{user}:{password}'`).
      .replace(
        /\b[fF][rR]?(["'])((?:\\.|(?!\1)[^\\\n])*)\1/g,
        (_whole, quote: string, body: string) =>
          `${quote}${body.replace(/\{([^{}]*)\}/g, `${quote}, $1, ${quote}`)}${quote}`,
      )
      .replace(/(["'`])(?:\\.|(?!\1)[^\\\n])*\1/g, '""');
    const values = [
      ...[...code.matchAll(CREDENTIAL_CONTAINER)].map((match) => match[0]),
      ...[...code.matchAll(IDENTIFIER)].map((match) => match[0]).filter(namesCredential),
    ];
    for (const value of values) {
      const key = value.toLowerCase().replace(/\s+/g, '');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/** A credential-carrying value that a log call gains, or undefined. */
export function credentialLogged(inserted: string, removed: string): string | undefined {
  const before = loggedCredentials(removed);
  for (const [value, times] of loggedCredentials(inserted))
    if (times > (before.get(value) ?? 0)) return value;
  return undefined;
}

export function judgeSecretLogging(inserted: string, removed: string): Finding[] {
  const value = credentialLogged(inserted, removed);
  if (value === undefined) return [];
  return [{ code: `content.logs-credentials:${value.slice(0, 60)}`, exfil: RISK.askHigh, onTask: 0.3 }];
}
