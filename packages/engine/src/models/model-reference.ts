import { EnginePackageError } from '../engine-package-error.js';
import { RECOMMENDED_MODELS, type RecommendedModel } from './recommended-models.js';

const marker = Symbol.for('arbiter.engine.ModelReferenceError');

/** A Hugging Face repository `owner/name`, as the Hub spells it (letters, digits, `-`, `_`, `.`). */
const REPO = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;
/** A branch, tag or commit. Slashes are allowed (branches such as `refs/pr/1`), `..` is not. */
const REVISION = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/;
const COMMIT = /^[0-9a-f]{40}$/;

/** What `arbiter models pull` was asked for: a curated name, or a repository at a revision. */
export type ModelReference =
  | { readonly kind: 'recommended'; readonly model: RecommendedModel }
  | { readonly kind: 'repository'; readonly repo: string; readonly revision: string };

export class ModelReferenceError extends EnginePackageError {
  readonly [marker] = true;
  override readonly name = 'ModelReferenceError';

  static override isInstance(error: unknown): error is ModelReferenceError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

/**
 * Parses `<recommended name>` or `<owner>/<name>[@<revision>]` (revision `main` when absent). Both
 * parts become directory names in the cache, so they are checked against the Hub's own alphabet
 * before anything touches the disk or the network.
 */
export function parseModelReference(text: string): ModelReference {
  const recommended = RECOMMENDED_MODELS.find((model) => model.name === text);
  if (recommended) return { kind: 'recommended', model: recommended };
  const at = text.indexOf('@');
  const repo = at === -1 ? text : text.slice(0, at);
  const revision = at === -1 ? 'main' : text.slice(at + 1);
  if (!REPO.test(repo) || repo.includes('..')) {
    throw new ModelReferenceError(
      `\`${text}\` is neither a recommended model (${RECOMMENDED_MODELS.map((model) => model.name).join(', ')}) nor a Hugging Face repository \`owner/name[@revision]\``,
    );
  }
  if (!REVISION.test(revision) || revision.split('/').some((part) => part === '..' || part === '.')) {
    throw new ModelReferenceError(`\`${revision}\` is not a valid revision (a branch, tag or commit hash)`);
  }
  return { kind: 'repository', repo, revision };
}

export function isCommitHash(revision: string): boolean {
  return COMMIT.test(revision);
}

/**
 * A file path inside a repository, from the Hub or from the user: relative, `/`-separated, no `.`
 * or `..` segment, no backslash or control character. The cache joins it under the model's
 * directory only after this check, so a hostile listing cannot write outside it.
 */
export function isSafeRepositoryPath(file: string): boolean {
  if (file.length === 0 || file.length > 512) return false;
  if (file.startsWith('/') || file.includes('\\') || /[\u0000-\u001f]/.test(file)) return false;
  return file.split('/').every((part) => part.length > 0 && part !== '.' && part !== '..');
}
