/**
 * Whether a field or variable name says that its value is a secret (`DB_PASSWORD`, `apiKey`,
 * `client_secret`, `GITHUB_TOKEN`), judged on the name's last word so that names which merely
 * mention a secret noun (`max_tokens`, `password_min_length`, `tokenizer`, `primary_key`) stay untouched.
 */
export function isSecretName(name: string): boolean {
  // Most names in code mention none of the secret nouns; this test spares them the word split.
  if (!mentionsSecretNoun.test(name)) return false;
  const words = splitNameIntoWords(name);
  const last = words.at(-1);
  if (last === undefined) return false;
  if (SECRET_NOUNS.has(last)) return true;
  if (last === 'key' || last === 'keys') {
    const qualifier = words.at(-2);
    return qualifier !== undefined && SECRET_KEY_QUALIFIERS.has(qualifier);
  }
  return false;
}

const mentionsSecretNoun = /pass|secret|token|key|credential|auth/i;

/** Last words that make a name secret on their own. `pwd` is left out: in shells `PWD` is the working directory. */
const SECRET_NOUNS = new Set([
  'password',
  'passwd',
  'passphrase',
  'secret',
  'secrets',
  'token',
  'apikey',
  'credential',
  'credentials',
  'authtoken',
  'accesstoken',
  'privatekey',
  'secretkey',
  'auth',
]);

/** `<qualifier>_key` names that hold key material, unlike `primary_key`, `sort_key` or `cache_key`. */
const SECRET_KEY_QUALIFIERS = new Set([
  'api',
  'private',
  'secret',
  'access',
  'encryption',
  'signing',
  'master',
  'client',
  'auth',
  'ssh',
  'account',
  'app',
  'session',
  'shared',
  'storage',
  'deploy',
  'license',
  'webhook',
  'hmac',
  'service',
]);

function splitNameIntoWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}
