import { constants, copyFileSync, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { acceptedLicences, isAcceptedLicence } from './licence-policy.js';
import type { InstalledModel, ModelCache, ModelManifest } from './model-cache.js';
import { defaultFiles, refuseLink, sha256Of } from './model-pull.js';
import { isCommitHash, isSafeRepositoryPath, parseModelReference } from './model-reference.js';
import { PullError } from './pull-error.js';

/** The revision recorded for files whose commit is not known (`owner/name` given without `@commit`). */
export const LOCAL_REVISION = 'local';

export interface AddLocalModelOptions {
  readonly cache: ModelCache;
  /** Which files of the directory (default: those of the recommended model, else the NLI set or the only GGUF). */
  readonly files?: readonly string[] | undefined;
  /** The licence of an `owner/name` model (a recommended model's is known). */
  readonly licence?: string | undefined;
  /** Add it although the licence is not one of `acceptedLicences()`. */
  readonly acceptLicence?: boolean | undefined;
  /** Clock for the manifest's `pulledAt` (injected by tests). */
  readonly now?: (() => Date) | undefined;
}

export interface AddLocalModelResult {
  readonly model: InstalledModel;
  /** True when the cache already held this revision with every file. */
  readonly alreadyInstalled: boolean;
}

/** Every regular file under `dir`, as repository paths (`onnx/model.onnx`). */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/**
 * `arbiter models add <dir> <model>`: puts a model's files from a local directory (downloaded on
 * another machine, carried on a disk) into the cache as a pull would: each file copied, hashed,
 * checked against the digest the recommended list pins (where it pins one), and the manifest
 * written last. The same refusals as a pull: no link in the cache is written through, a licence
 * outside the accepted list needs `acceptLicence`. Nothing is fetched.
 */
export async function addLocalModel(
  source: string,
  referenceText: string,
  options: AddLocalModelOptions,
): Promise<AddLocalModelResult> {
  const cache = options.cache;
  const reference = parseModelReference(referenceText);
  const sourceDir = path.resolve(source);
  if (!existsSync(sourceDir) || !statSync(sourceDir).isDirectory())
    throw new PullError('not_found', `${source} is not a directory`);

  let repo: string;
  let revision: string;
  let name: string | null = null;
  let engineKind: string | null;
  let licence: string | null;
  let files: { path: string; sha256: string | null }[];
  if (reference.kind === 'recommended') {
    const model = reference.model;
    repo = model.repo;
    revision = model.revision ?? LOCAL_REVISION;
    name = model.name;
    engineKind = model.engineKind;
    licence = model.licence;
    const wanted = options.files?.length ? options.files : model.files.map((file) => file.path);
    files = wanted.map((file) => ({
      path: file,
      sha256: model.files.find((pinned) => pinned.path === file)?.sha256 ?? null,
    }));
  } else {
    repo = reference.repo;
    // A branch name says nothing about which commit these bytes are; only a commit hash is kept.
    const given = referenceText.includes('@') ? reference.revision : null;
    if (given !== null && !isCommitHash(given))
      throw new PullError(
        'not_found',
        `\`${given}\` is not a commit hash; give the commit the files came from (40 hex digits), or no revision`,
      );
    revision = given ?? LOCAL_REVISION;
    const wanted = options.files?.length ? [...options.files] : defaultFiles(repo, listFiles(sourceDir));
    files = wanted.map((file) => ({ path: file, sha256: null }));
    engineKind = wanted.some((file) => file.endsWith('.onnx'))
      ? 'nli'
      : wanted.some((file) => file.endsWith('.gguf'))
        ? 'llama-cpp'
        : null;
    licence = options.licence ?? null;
  }
  if (!options.acceptLicence && !isAcceptedLicence(licence))
    throw new PullError(
      'licence_not_accepted',
      `${repo}: licence ${licence ? `\`${licence}\`` : 'not stated (pass --license <id>)'} is not one Arbiter accepts by default (${acceptedLicences().join(', ')}); read it on the model's page and pass --accept-license to add it anyway`,
    );
  for (const file of files) {
    if (!isSafeRepositoryPath(file.path))
      throw new PullError('not_found', `\`${file.path}\` is not a safe file path`);
    const from = path.join(sourceDir, ...file.path.split('/'));
    if (!existsSync(from) || !statSync(from).isFile())
      throw new PullError('not_found', `${source}: no file \`${file.path}\``);
  }

  const present = cache
    .findAll(`${repo}@${revision}`)
    .find(
      (model) =>
        cache.damage(model) === null &&
        files.every((file) => model.manifest.files.some((held) => held.path === file.path)),
    );
  if (present) return { model: present, alreadyInstalled: true };

  const dir = cache.revisionDir(repo, revision);
  refuseLink(cache, dir);
  cache.ensureDir(dir);
  try {
    const recorded: ModelManifest['files'] = [];
    for (const file of files) {
      const target = cache.fileOf(dir, file.path);
      const partial = `${target}.partial`;
      refuseLink(cache, target);
      refuseLink(cache, partial);
      cache.ensureDir(path.dirname(target));
      rmSync(partial, { force: true });
      // Exclusive: the part is a new file of ours, never something planted under its name.
      copyFileSync(path.join(sourceDir, ...file.path.split('/')), partial, constants.COPYFILE_EXCL);
      const sha256 = await sha256Of(partial);
      if (file.sha256 !== null && sha256 !== file.sha256) {
        rmSync(partial, { force: true });
        throw new PullError(
          'checksum_mismatch',
          `${file.path}: checksum mismatch (expected ${file.sha256}, got sha256 ${sha256}); not added`,
        );
      }
      renameSync(partial, target);
      recorded.push({ path: file.path, bytes: statSync(target).size, sha256 });
    }
    // Files a manifest of this revision already listed, still whole, stay listed beside the new ones.
    const earlier = cache.installed().find((model) => model.dir === dir);
    const kept = (earlier?.manifest.files ?? []).filter(
      (held) =>
        !recorded.some((file) => file.path === held.path) &&
        earlier !== undefined &&
        cache.damage({ ...earlier, manifest: { ...earlier.manifest, files: [held] } }) === null,
    );
    const all = [...kept, ...recorded];
    const manifest: ModelManifest = {
      format: 1,
      repo,
      revision,
      name: name ?? earlier?.manifest.name ?? null,
      engineKind: engineKind ?? earlier?.manifest.engineKind ?? null,
      licence,
      files: all,
      pulledAt: (options.now?.() ?? new Date()).toISOString(),
    };
    cache.writeManifest(dir, manifest);
    return {
      model: { manifest, dir, bytes: all.reduce((sum, file) => sum + file.bytes, 0) },
      alreadyInstalled: false,
    };
  } catch (error) {
    cache.removeIfEmpty(dir);
    throw error;
  }
}
