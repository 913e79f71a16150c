import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomicSync } from '@arbiter/atomic-file';
import { z } from 'zod';
import { isSafeRepositoryPath } from './model-reference.js';

export const MANIFEST_FILE = '.arbiter-manifest.json';

const manifestSchema = z.object({
  format: z.literal(1),
  repo: z.string(),
  /** The commit the files came from (a branch asked for is resolved and recorded). */
  revision: z.string(),
  /** The recommended model's name, when pulled by name. */
  name: z.string().nullable(),
  engineKind: z.string().nullable(),
  licence: z.string().nullable(),
  files: z.array(z.object({ path: z.string(), bytes: z.number().int().min(0), sha256: z.string() })),
  pulledAt: z.string(),
});
export type ModelManifest = z.infer<typeof manifestSchema>;

/** A model whose every file was downloaded and verified: its manifest is written last. */
export interface InstalledModel {
  readonly manifest: ModelManifest;
  readonly dir: string;
  readonly bytes: number;
}

/** A revision directory without a manifest: an interrupted pull, resumable, never loaded. */
export interface IncompleteModel {
  readonly repo: string;
  readonly revision: string;
  readonly dir: string;
  readonly bytes: number;
}

/**
 * The local model cache: `<root>/<owner>--<name>/<commit>/<files>` plus a manifest per revision.
 * The manifest is written only after every file was verified against its sha256, so an engine
 * that finds a manifest loads verified bytes, and one that finds none loads nothing.
 *
 * Shared by every engine kind that runs local weights (`nli`, `llama-cpp`): `find(reference)`
 * gives the directory, `fileOf(model, path)` a file in it.
 */
export class ModelCache {
  constructor(readonly root: string) {}

  /** `$ARBITER_MODELS_DIR`, else `<data dir>/models` (`$ARBITER_DATA_DIR` or `~/.arbiter`). */
  static defaultRoot(env: NodeJS.ProcessEnv = process.env): string {
    if (env.ARBITER_MODELS_DIR) return path.resolve(env.ARBITER_MODELS_DIR);
    return path.resolve(env.ARBITER_DATA_DIR || path.join(os.homedir(), '.arbiter'), 'models');
  }

  revisionDir(repo: string, revision: string): string {
    const dir = path.resolve(this.root, repo.replace('/', '--'), revision);
    if (!dir.startsWith(`${path.resolve(this.root)}${path.sep}`)) {
      throw new Error(`model directory for ${repo}@${revision} would leave the cache`);
    }
    return dir;
  }

  /** A file of a model, confined to its revision directory. */
  fileOf(dir: string, file: string): string {
    if (!isSafeRepositoryPath(file)) throw new Error(`\`${file}\` is not a safe path inside a model`);
    return path.join(dir, ...file.split('/'));
  }

  installed(): InstalledModel[] {
    return this.#revisionDirs().flatMap(({ dir }) => {
      const manifest = readManifest(dir);
      return manifest
        ? [{ manifest, dir, bytes: manifest.files.reduce((sum, file) => sum + file.bytes, 0) }]
        : [];
    });
  }

  incomplete(): IncompleteModel[] {
    return this.#revisionDirs()
      .filter(({ dir }) => !existsSync(path.join(dir, MANIFEST_FILE)))
      .map(({ repo, revision, dir }) => ({ repo, revision, dir, bytes: directoryBytes(dir) }));
  }

  /**
   * The installed model a reference names: a recommended name, `owner/name` (the newest pull)
   * or `owner/name@revision` (a commit, or the branch it was pulled as).
   */
  find(reference: string): InstalledModel | undefined {
    return this.findAll(reference).sort((a, b) => b.manifest.pulledAt.localeCompare(a.manifest.pulledAt))[0];
  }

  findAll(reference: string): InstalledModel[] {
    const at = reference.indexOf('@');
    const repo = at === -1 ? reference : reference.slice(0, at);
    const revision = at === -1 ? undefined : reference.slice(at + 1);
    return this.installed().filter(({ manifest }) => {
      if (manifest.name === reference) return true;
      if (manifest.repo !== repo) return false;
      return revision === undefined || manifest.revision === revision;
    });
  }

  /**
   * What is wrong with an installed model's files now, or null: a file missing or of another size
   * than the verified one (a cache edited or truncated after the pull). Cheap enough to run at
   * every load; the full sha256 check runs at pull time.
   */
  damage(model: InstalledModel): string | null {
    for (const file of model.manifest.files) {
      const target = this.fileOf(model.dir, file.path);
      if (!existsSync(target)) return `${file.path} is missing from ${model.dir}`;
      const link = this.linkOnPath(target);
      if (link !== null) return `${link} is a symbolic link, not what was verified at pull time`;
      const size = statSync(target).size;
      if (size !== file.bytes)
        return `${file.path} has ${size} bytes, not the ${file.bytes} verified at pull time`;
    }
    return null;
  }

  /**
   * The first symbolic link on the way from the cache's root to `file` (the file included), or
   * null. A pull writes nothing through a link below the root: one planted there could send the
   * bytes, or the removal of a bad download, anywhere the user can write. The root itself may be a
   * link (a cache moved to another disk).
   */
  linkOnPath(file: string): string | null {
    const root = path.resolve(this.root);
    const relative = path.relative(root, path.resolve(file));
    if (relative.startsWith('..') || path.isAbsolute(relative)) return file;
    let current = root;
    for (const part of relative.split(path.sep).filter(Boolean)) {
      current = path.join(current, part);
      let isLink: boolean;
      try {
        isLink = lstatSync(current).isSymbolicLink();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      if (isLink) return current;
    }
    return null;
  }

  /**
   * Removes a revision directory a failed pull left without a byte in it (and its repository's
   * directory when that is then empty), so `models list` shows no empty "incomplete" entry. A
   * directory that holds part of a file is kept: the next pull resumes it.
   */
  removeIfEmpty(dir: string): void {
    if (!existsSync(dir) || lstatSync(dir).isSymbolicLink() || directoryBytes(dir) > 0) return;
    if (existsSync(path.join(dir, MANIFEST_FILE))) return;
    rmSync(dir, { recursive: true, force: true });
    const repoDir = path.dirname(dir);
    if (existsSync(repoDir) && readdirSync(repoDir).length === 0)
      rmSync(repoDir, { recursive: true, force: true });
  }

  writeManifest(dir: string, manifest: ModelManifest): void {
    // The temporary file is created exclusively: a link planted beside the manifest is not written through.
    writeFileAtomicSync(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  }

  /** Removes every revision a reference names (and partial pulls of that repository); returns them. */
  remove(reference: string): string[] {
    const installed = this.findAll(reference).map((model) => model.dir);
    const repo = reference.includes('/') ? reference.split('@')[0] : undefined;
    const partial = this.incomplete()
      .filter((model) => model.repo === repo)
      .map((model) => model.dir);
    const removed = [...new Set([...installed, ...partial])];
    for (const dir of removed) {
      rmSync(dir, { recursive: true, force: true });
      const repoDir = path.dirname(dir);
      if (readdirSync(repoDir).length === 0) rmSync(repoDir, { recursive: true, force: true });
    }
    return removed;
  }

  ensureDir(dir: string): void {
    mkdirSync(dir, { recursive: true, mode: 0o755 });
  }

  #revisionDirs(): { repo: string; revision: string; dir: string }[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name.includes('--'))
      .flatMap((repoEntry) =>
        readdirSync(path.join(this.root, repoEntry.name), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => ({
            repo: repoEntry.name.replace('--', '/'),
            revision: entry.name,
            dir: path.join(this.root, repoEntry.name, entry.name),
          })),
      );
  }
}

function readManifest(dir: string): ModelManifest | undefined {
  const file = path.join(dir, MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  // A manifest of another format is not ours to load; `models list` shows the pull as incomplete.
  return parsed.success ? parsed.data : undefined;
}

function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}
