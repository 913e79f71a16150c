import type { Finding } from '../finding.js';
import { RISK } from '../risk-scale.js';

/**
 * Issue 27, "changes judged by their consequence": an ignore file is an exclusion list that
 * decides what leaves the machine. `.gitignore` keeps files out of the history everyone who can
 * read the repository reads; `.dockerignore` keeps them out of every image built from the
 * context; `.npmignore` and the other publishers' lists keep them out of the package. An entry
 * that names where secrets or history live (`.env`, keys, credentials, `.git`, state files)
 * is a protection: removing it, or re-including such a path with `!`, exposes what it kept out.
 * Entries for build output and caches protect nothing, so editing them is routine.
 */
const EXCLUSION_LIST =
  /(^|\/)(\.(git|docker|npm|gcloud|vercel|helm|slug|cf|eb|hg|vscode|prettier|eslint|cursor|claude)ignore|\.git\/info\/exclude|\.bzrignore)$/i;
/** Lists whose entries only keep files from a tool's view, not from leaving the machine. */
const VIEW_ONLY_LIST = /(^|\/)\.(prettier|eslint)ignore$/i;

/**
 * Entries that name where secrets or history live: environment files, keys and certificates,
 * credential and secret files, cloud and package-manager credentials, VCS metadata, and
 * infrastructure state (which holds every secret it created).
 */
const SECRET_BEARING_ENTRY =
  /(^|[/*])\.env\b|\.(pem|key|p12|pfx|jks|keystore|kdbx|asc|gpg|ppk)\b|(^|\/)id_(rsa|dsa|ecdsa|ed25519)\b|credential|secret|\.npmrc\b|\.pypirc\b|\.netrc\b|\.aws\b|\.ssh\b|(^|\/)\.git\/?$|(^|\/)\.git\b(?!ignore|attributes|hub|lab|keep)|\.tfstate\b|\.tfvars\b|service[-_]?account|token/i;

/** Templates of secret files hold placeholders, and are meant to be committed (`!.env.example`). */
const TEMPLATE_ENTRY = /\.(example|sample|template|dist|defaults?)\b/i;

function bearsSecrets(entry: string): boolean {
  return SECRET_BEARING_ENTRY.test(entry) && !TEMPLATE_ENTRY.test(entry);
}

function entries(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

export function isExclusionList(path: string): boolean {
  return EXCLUSION_LIST.test(path) && !VIEW_ONLY_LIST.test(path);
}

/**
 * What an edit of an exclusion list exposes: a secret-bearing entry it drops, or one it
 * re-includes (`!.env.production`).
 */
export function judgeExclusionList(path: string, inserted: string, removed: string): Finding[] {
  if (!isExclusionList(path)) return [];
  const kept = new Set(entries(inserted));
  const dropped = entries(removed).filter(
    (entry) => !entry.startsWith('!') && !kept.has(entry) && bearsSecrets(entry),
  );
  const before = new Set(entries(removed));
  const reincluded = entries(inserted).filter(
    (entry) => entry.startsWith('!') && !before.has(entry) && bearsSecrets(entry.slice(1)),
  );
  const exposed = dropped[0] ?? reincluded[0];
  if (exposed === undefined) return [];
  return [
    {
      code: `content.exclusion-removed:${exposed.slice(0, 60)}`,
      exfil: RISK.askHigh,
      onTask: 0.3,
    },
  ];
}
