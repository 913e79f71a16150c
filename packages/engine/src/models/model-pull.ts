import { createHash } from 'node:crypto';
import { createReadStream, existsSync, renameSync, rmSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { type DownloadProgress, downloadVerifiedFile } from './hub-download.js';
import { fetchRepositoryRevision } from './hub-repository.js';
import { acceptedLicences, isAcceptedLicence } from './licence-policy.js';
import type { InstalledModel, ModelCache, ModelManifest } from './model-cache.js';
import { isCommitHash, isSafeRepositoryPath, parseModelReference } from './model-reference.js';
import { PullError } from './pull-error.js';

export const DEFAULT_HUB_ENDPOINT = 'https://huggingface.co';

export interface PullOptions {
  readonly cache: ModelCache;
  /** Default `$HF_ENDPOINT` or https://huggingface.co. */
  readonly endpoint?: string | undefined;
  /** Use the cache only; also set by `HF_HUB_OFFLINE=1` or `ARBITER_OFFLINE=1`. */
  readonly offline?: boolean | undefined;
  /** Pull although the licence is not one of `acceptedLicences()`. */
  readonly acceptLicence?: boolean | undefined;
  /** For a repository reference: which files (default: the NLI set, or the only GGUF). */
  readonly files?: readonly string[] | undefined;
  /** Default `$HF_TOKEN`; sent to the Hub's origin only. */
  readonly token?: string | undefined;
  /** Default: an undici `EnvHttpProxyAgent` (HTTPS_PROXY, HTTP_PROXY, NO_PROXY). */
  readonly dispatcher?: Dispatcher | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onEvent?: ((event: PullEvent) => void) | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Clock for the manifest's `pulledAt` (injected by tests). */
  readonly now?: (() => Date) | undefined;
}

export type PullEvent =
  | { type: 'resolved'; repo: string; revision: string; files: readonly string[]; licence: string | null }
  | ({ type: 'progress' } & DownloadProgress)
  | { type: 'verified'; file: string; bytes: number; sha256: string };

export interface PullResult {
  readonly model: InstalledModel;
  /** True when nothing was downloaded because the cache already held the model. */
  readonly alreadyInstalled: boolean;
}

interface PullPlan {
  repo: string;
  commit: string;
  name: string | null;
  engineKind: string | null;
  licence: string | null;
  files: { path: string; sha256: string | null }[];
}

/**
 * `arbiter models pull`: resolves a recommended name or `owner/name[@revision]` to a commit, checks
 * the licence, downloads each file with resume and sha256 verification, and writes the cache
 * manifest last. Nothing is loaded from the cache until that manifest exists.
 */
export async function pullModel(referenceText: string, options: PullOptions): Promise<PullResult> {
  const env = options.env ?? process.env;
  const reference = parseModelReference(referenceText);
  const offline = options.offline || env.HF_HUB_OFFLINE === '1' || env.ARBITER_OFFLINE === '1';
  const cache = options.cache;

  const pinned =
    reference.kind === 'recommended'
      ? reference.model.revision
      : isCommitHash(reference.revision)
        ? reference.revision
        : null;
  const repo = reference.kind === 'recommended' ? reference.model.repo : reference.repo;
  // What the cache holds counts only when it has every file asked for, whole: a revision pulled
  // with other files (`--file OTHER`), or one edited since, is fetched and verified again.
  const wanted =
    reference.kind === 'recommended' ? reference.model.files.map((file) => file.path) : options.files;
  const usable = (model: InstalledModel) =>
    cache.damage(model) === null &&
    (wanted === undefined ||
      wanted.length === 0 ||
      wanted.every((file) => model.manifest.files.some((held) => held.path === file)));
  const present = cache
    .findAll(pinned ? `${repo}@${pinned}` : repo)
    .filter(usable)
    .sort((a, b) => b.manifest.pulledAt.localeCompare(a.manifest.pulledAt))[0];
  if (present && (pinned !== null || offline)) return { model: present, alreadyInstalled: true };
  if (offline) {
    throw new PullError(
      'offline',
      `${referenceText}${options.files?.length ? ` (${options.files.join(', ')})` : ''} is not in the model cache (${cache.root}) and offline mode forbids downloading it`,
    );
  }

  const endpoint = (options.endpoint ?? env.HF_ENDPOINT ?? DEFAULT_HUB_ENDPOINT).replace(/\/+$/, '');
  const token = options.token ?? env.HF_TOKEN ?? undefined;
  const ownDispatcher = options.dispatcher ? undefined : await defaultDispatcher(env);
  const dispatcher = options.dispatcher ?? ownDispatcher!;
  const http = { dispatcher, token, signal: options.signal };
  try {
    let plan: PullPlan;
    if (reference.kind === 'recommended') {
      const model = reference.model;
      const commit =
        model.revision ?? (await fetchRepositoryRevision(endpoint, model.repo, 'main', http)).commit;
      plan = {
        repo: model.repo,
        commit,
        name: model.name,
        engineKind: model.engineKind,
        licence: model.licence,
        files: model.files.map((file) => ({ path: file.path, sha256: file.sha256 })),
      };
    } else {
      const revision = await fetchRepositoryRevision(endpoint, reference.repo, reference.revision, http);
      const files = options.files?.length ? [...options.files] : defaultFiles(reference.repo, revision.files);
      for (const file of files) {
        if (!revision.files.includes(file))
          throw new PullError('not_found', `${reference.repo}@${revision.commit}: no file \`${file}\``);
      }
      plan = {
        repo: reference.repo,
        commit: revision.commit,
        name: null,
        engineKind: files.some((file) => file.endsWith('.onnx'))
          ? 'nli'
          : files.some((file) => file.endsWith('.gguf'))
            ? 'llama-cpp'
            : null,
        licence: revision.licence,
        files: files.map((file) => ({ path: file, sha256: null })),
      };
      const again = cache
        .findAll(`${plan.repo}@${plan.commit}`)
        .find(
          (model) =>
            cache.damage(model) === null &&
            files.every((file) => model.manifest.files.some((held) => held.path === file)),
        );
      if (again) return { model: again, alreadyInstalled: true };
    }

    if (!options.acceptLicence && !isAcceptedLicence(plan.licence)) {
      throw new PullError(
        'licence_not_accepted',
        `${plan.repo}: licence ${plan.licence ? `\`${plan.licence}\`` : 'not stated'} is not one Arbiter accepts by default (${acceptedLicences().join(', ')}); read it on the model's page and pass --accept-license to pull anyway`,
      );
    }
    for (const file of plan.files) {
      if (!isSafeRepositoryPath(file.path))
        throw new PullError('not_found', `\`${file.path}\` is not a safe file path`);
    }
    options.onEvent?.({
      type: 'resolved',
      repo: plan.repo,
      revision: plan.commit,
      files: plan.files.map((file) => file.path),
      licence: plan.licence,
    });

    const dir = cache.revisionDir(plan.repo, plan.commit);
    refuseLink(cache, dir);
    cache.ensureDir(dir);
    try {
      return await downloadPlan(plan, dir, options, { ...http, endpoint });
    } catch (error) {
      // Nothing arrived (no network, a 404, a refused licence): leave no empty revision behind.
      cache.removeIfEmpty(dir);
      throw error;
    }
  } finally {
    await ownDispatcher?.close();
  }
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Fails the pull when a symbolic link lies where it would write. */
export function refuseLink(cache: ModelCache, file: string): void {
  const link = cache.linkOnPath(file);
  if (link !== null)
    throw new PullError(
      'unsafe_cache',
      `${link} is a symbolic link; a pull never writes through a link in the model cache (${cache.root}); remove it and pull again`,
    );
}

/**
 * Downloads and verifies each file of the plan into the revision directory, then writes the
 * manifest: the files verified now, plus those a manifest of the same revision already listed and
 * that are still whole (a second `--file` adds to a revision, it does not forget the first).
 */
async function downloadPlan(
  plan: PullPlan,
  dir: string,
  options: PullOptions,
  http: {
    endpoint: string;
    dispatcher: Dispatcher;
    token: string | undefined;
    signal: AbortSignal | undefined;
  },
): Promise<PullResult> {
  const cache = options.cache;
  const earlier = cache.installed().find((model) => model.dir === dir);
  const recorded: ModelManifest['files'] = [];
  for (const file of plan.files) {
    const target = cache.fileOf(dir, file.path);
    refuseLink(cache, target);
    refuseLink(cache, `${target}.partial`);
    const verified = earlier?.manifest.files.find((held) => held.path === file.path);
    if (verified !== undefined && existsSync(target)) {
      // A file this revision's manifest lists is kept when it still has the verified digest, and
      // otherwise fetched whole again: changed bytes are no prefix to resume from.
      if ((await sha256Of(target)) === verified.sha256) {
        recorded.push(verified);
        continue;
      }
      rmSync(target, { force: true });
      rmSync(`${target}.partial`, { force: true });
    }
    // A file finished by an interrupted pull is checked again through the resume path (the
    // server answers 416 and the digest headers), not trusted for having its name.
    if (existsSync(target)) renameSync(target, `${target}.partial`);
    const downloaded = await downloadVerifiedFile(
      {
        url: `${http.endpoint}/${plan.repo}/resolve/${plan.commit}/${file.path.split('/').map(encodeURIComponent).join('/')}`,
        target,
        expectedSha256: file.sha256,
        displayName: `${plan.repo}@${plan.commit.slice(0, 10)}: ${file.path}`,
      },
      { ...http, onProgress: (progress) => options.onEvent?.({ type: 'progress', ...progress }) },
    );
    options.onEvent?.({ type: 'verified', file: file.path, ...downloaded });
    recorded.push({ path: file.path, ...downloaded });
  }
  const kept = earlier
    ? earlier.manifest.files.filter(
        (held) =>
          !recorded.some((file) => file.path === held.path) &&
          cache.damage({ ...earlier, manifest: { ...earlier.manifest, files: [held] } }) === null,
      )
    : [];
  const files = [...kept, ...recorded];
  const manifest: ModelManifest = {
    format: 1,
    repo: plan.repo,
    revision: plan.commit,
    name: plan.name ?? earlier?.manifest.name ?? null,
    engineKind: plan.engineKind ?? earlier?.manifest.engineKind ?? null,
    licence: plan.licence,
    files,
    pulledAt: (options.now?.() ?? new Date()).toISOString(),
  };
  cache.writeManifest(dir, manifest);
  return {
    model: { manifest, dir, bytes: files.reduce((sum, file) => sum + file.bytes, 0) },
    alreadyInstalled: false,
  };
}

/**
 * undici's `EnvHttpProxyAgent` (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, either case) when a proxy is
 * configured; a plain agent otherwise, since the proxy agent prints an experimental warning.
 */
async function defaultDispatcher(env: NodeJS.ProcessEnv): Promise<Dispatcher> {
  const { Agent, EnvHttpProxyAgent } = await import('undici');
  const timeouts = { connect: { timeout: 15_000 }, headersTimeout: 30_000, bodyTimeout: 60_000 };
  const httpsProxy = env.HTTPS_PROXY || env.https_proxy || undefined;
  const httpProxy = env.HTTP_PROXY || env.http_proxy || undefined;
  if (!httpsProxy && !httpProxy) return new Agent(timeouts);
  const noProxy = env.NO_PROXY ?? env.no_proxy ?? '';
  return new EnvHttpProxyAgent({ ...timeouts, httpProxy, httpsProxy, noProxy });
}

const PREFERRED_ONNX = ['onnx/model_quantized.onnx', 'onnx/model.onnx', 'model_quantized.onnx', 'model.onnx'];

/** The files an NLI engine or a GGUF engine needs, when the user named none. */
export function defaultFiles(repo: string, available: readonly string[]): string[] {
  const onnx = available.filter((file) => file.endsWith('.onnx'));
  if (onnx.length > 0) {
    const chosen =
      PREFERRED_ONNX.find((file) => onnx.includes(file)) ?? (onnx.length === 1 ? onnx[0] : undefined);
    if (!chosen) throw ambiguous(repo, onnx);
    for (const required of ['config.json', 'tokenizer.json']) {
      if (!available.includes(required))
        throw new PullError(
          'not_found',
          `${repo}: an ONNX cross-encoder needs \`${required}\`, which the repository lacks`,
        );
    }
    return [
      'config.json',
      'tokenizer.json',
      ...(available.includes('tokenizer_config.json') ? ['tokenizer_config.json'] : []),
      chosen,
    ];
  }
  const gguf = available.filter((file) => file.endsWith('.gguf'));
  if (gguf.length === 1) return [gguf[0]!];
  throw ambiguous(repo, gguf.length > 0 ? gguf : available);
}

function ambiguous(repo: string, candidates: readonly string[]): PullError {
  const shown = candidates.slice(0, 20).join(', ');
  return new PullError(
    'ambiguous_files',
    `${repo}: say which files to pull with --file (candidates: ${shown}${candidates.length > 20 ? ', …' : ''})`,
  );
}
