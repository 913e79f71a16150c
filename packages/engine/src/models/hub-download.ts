import { createHash, type Hash } from 'node:crypto';
import { constants, createReadStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { Dispatcher } from 'undici';
import { describeNetworkFailure, explainNetworkFailure } from './network-failure.js';
import { PullError } from './pull-error.js';

const MAX_REDIRECTS = 5;
const SHA256 = /^[0-9a-f]{64}$/;
const GIT_OID = /^[0-9a-f]{40}$/;

/** How one file is fetched: the Hub's resolve URL and what to trust it against. */
export interface DownloadRequest {
  readonly url: string;
  /** Final place of the file; `<target>.partial` holds the bytes until they are verified. */
  readonly target: string;
  /** A digest known in advance (the curated list); otherwise the Hub's LFS sha256 is required. */
  readonly expectedSha256: string | null;
  readonly displayName: string;
}

export interface DownloadContext {
  readonly dispatcher: Dispatcher;
  /** `Authorization: Bearer …` for the Hub's own origin (gated repositories); never sent elsewhere. */
  readonly token?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: DownloadProgress) => void) | undefined;
}

export interface DownloadProgress {
  readonly file: string;
  readonly receivedBytes: number;
  /** Null when the server announced no length. */
  readonly totalBytes: number | null;
  /** Bytes kept from an earlier, interrupted pull. */
  readonly resumedFromBytes: number;
}

export interface DownloadedFile {
  readonly bytes: number;
  readonly sha256: string;
}

interface ResponseFacts {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: NodeJS.ReadableStream & { dump(): Promise<void> };
}

/**
 * Downloads one file from a Hugging Face resolve endpoint and verifies it before it takes its
 * name. The body goes to `<target>.partial`; a later pull resumes it with a `Range` request. The
 * sha256 to check is the one known in advance, else the Hub's `X-Linked-Etag` (the LFS object's
 * sha256, sent on the resolve response before the redirect to the CDN), else, for small files
 * kept in git rather than LFS, the git blob id in `ETag`. A file with none of these is refused:
 * bytes that cannot be verified are not loaded.
 */
export async function downloadVerifiedFile(
  request: DownloadRequest,
  context: DownloadContext,
): Promise<DownloadedFile> {
  const partial = `${request.target}.partial`;
  await mkdir(path.dirname(request.target), { recursive: true });
  let offset = existsSync(partial) ? statSync(partial).size : 0;

  const { response, linkedSha256, gitOid, linkedSize } = await requestFollowingRedirects(
    request,
    context,
    offset,
  );
  let total: number | null = null;
  if (response.statusCode === 416) {
    // The partial file already holds every byte (a pull cut between the last byte and the rename).
    await response.body.dump();
  } else {
    if (response.statusCode === 200 && offset > 0) {
      // The server ignored the range: start again rather than append the whole file to the part.
      rmSync(partial, { force: true });
      offset = 0;
    } else if (response.statusCode === 206) {
      const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header(response, 'content-range') ?? '');
      if (!range || Number(range[1]) !== offset) {
        await response.body.dump();
        rmSync(partial, { force: true });
        throw new PullError(
          'http_error',
          `${request.displayName}: the server answered a different range than asked`,
        );
      }
      if (range[3] !== '*') total = Number(range[3]);
    }
    const length = Number(header(response, 'content-length'));
    if (total === null && Number.isFinite(length) && header(response, 'content-length') !== undefined)
      total = offset + length;
    // The Hub's own announcement of an LFS file's size (X-Linked-Size) bounds what is read, also
    // when the CDN sends no length; a length that contradicts it is refused before any byte.
    if (linkedSize !== null && total !== null && total !== linkedSize) {
      await response.body.dump();
      throw new PullError(
        'http_error',
        `${request.displayName}: the server announced ${linkedSize} bytes, then ${total}; nothing was kept`,
      );
    }
    total ??= linkedSize;
    await writeBody(response, partial, offset, total, request.displayName, context);
  }

  const bytes = statSync(partial).size;
  const sha256 = await hashFile(partial, createHash('sha256'));
  const expected = request.expectedSha256 ?? linkedSha256;
  let verified: boolean;
  if (expected !== null) {
    verified = sha256 === expected;
  } else if (gitOid !== null) {
    const blob = createHash('sha1').update(`blob ${bytes}\0`);
    verified = (await hashFile(partial, blob)) === gitOid;
  } else {
    rmSync(partial, { force: true });
    throw new PullError(
      'unverifiable',
      `${request.displayName}: the server sent no checksum (X-Linked-Etag or ETag) and none is pinned, so the file cannot be verified`,
    );
  }
  if (!verified) {
    rmSync(partial, { force: true });
    throw new PullError(
      'checksum_mismatch',
      `${request.displayName}: checksum mismatch (expected ${expected ?? `git blob ${gitOid}`}, got sha256 ${sha256}); the download was discarded`,
    );
  }
  renameSync(partial, request.target);
  return { bytes, sha256 };
}

async function requestFollowingRedirects(
  request: DownloadRequest,
  context: DownloadContext,
  offset: number,
): Promise<{
  response: ResponseFacts;
  linkedSha256: string | null;
  gitOid: string | null;
  linkedSize: number | null;
}> {
  const { request: undiciRequest } = await import('undici');
  const origin = new URL(request.url).origin;
  let url = request.url;
  let linkedSha256: string | null = null;
  let gitOid: string | null = null;
  let linkedSize: number | null = null;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const headers: Record<string, string> = { 'user-agent': 'arbiter-models-pull' };
    if (offset > 0) headers.range = `bytes=${offset}-`;
    if (context.token && new URL(url).origin === origin) headers.authorization = `Bearer ${context.token}`;
    let response: ResponseFacts;
    try {
      response = (await undiciRequest(url, {
        method: 'GET',
        headers,
        dispatcher: context.dispatcher,
        signal: context.signal,
      })) as unknown as ResponseFacts;
    } catch (error) {
      const failure = explainNetworkFailure(error, url);
      throw new PullError('network', `${request.displayName}: ${describeNetworkFailure(failure)}`, {
        cause: error,
        reason: failure.reason,
      });
    }
    // The digest headers come with the Hub's answer, not the CDN's after the redirect.
    const linked = stripQuotes(header(response, 'x-linked-etag'));
    if (linked && SHA256.test(linked)) linkedSha256 ??= linked;
    const size = header(response, 'x-linked-size');
    if (size !== undefined && /^\d{1,15}$/.test(size) && new URL(url).origin === origin)
      linkedSize ??= Number(size);
    // The Hub's own ETag (a git blob id, or an LFS sha256), also after a renamed repository's
    // redirect; a CDN's ETag is its own business and is never trusted as a digest.
    const etag = stripQuotes(header(response, 'etag'));
    if (etag && new URL(url).origin === origin && GIT_OID.test(etag)) gitOid ??= etag;
    if (etag && new URL(url).origin === origin && SHA256.test(etag)) linkedSha256 ??= etag;

    const status = response.statusCode;
    if (status >= 300 && status < 400 && header(response, 'location')) {
      await response.body.dump();
      url = new URL(header(response, 'location')!, url).toString();
      continue;
    }
    if (status === 200 || status === 206 || status === 416)
      return { response, linkedSha256, gitOid, linkedSize };
    await response.body.dump();
    if (status === 404) throw new PullError('not_found', `${request.displayName}: not found (404)`);
    if (status === 401 || status === 403) {
      throw new PullError(
        'forbidden',
        `${request.displayName}: access refused (${status}); a gated repository needs HF_TOKEN and accepted terms on its page`,
      );
    }
    throw new PullError('http_error', `${request.displayName}: the server answered ${status}`);
  }
  throw new PullError('too_many_redirects', `${request.displayName}: more than ${MAX_REDIRECTS} redirects`);
}

async function writeBody(
  response: ResponseFacts,
  partial: string,
  offset: number,
  total: number | null,
  file: string,
  context: DownloadContext,
): Promise<void> {
  let received = offset;
  const report = context.onProgress;
  report?.({ file, receivedBytes: received, totalBytes: total, resumedFromBytes: offset });
  const body = response.body as AsyncIterable<Buffer>;
  // Each chunk is on disk before the next is read, so a cut loses nothing that arrived: a write
  // stream destroyed by the error would drop its queued writes, and the resume would start earlier.
  // O_NOFOLLOW: a link planted where the part goes is refused, never written through.
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    constants.O_NOFOLLOW |
    (offset > 0 ? constants.O_APPEND : constants.O_TRUNC);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(partial, flags, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new PullError(
        'unsafe_cache',
        `${partial} is a symbolic link; a pull never writes through a link in the model cache (remove it)`,
      );
    throw error;
  }
  let oversized = false;
  try {
    for await (const chunk of body) {
      // Reading stops at the announced length: a body that goes on is refused, not stored.
      if (total !== null && received + chunk.length > total) {
        oversized = true;
        break;
      }
      await handle.write(chunk);
      received += chunk.length;
      report?.({ file, receivedBytes: received, totalBytes: total, resumedFromBytes: offset });
    }
  } catch (error) {
    // The part stays on disk: the next pull resumes from its last byte.
    const failure = explainNetworkFailure(error, '');
    throw new PullError(
      'network',
      `${file}: the download was cut after ${received} bytes (${failure.reason}); run the pull again to resume`,
      { cause: error, reason: failure.reason },
    );
  } finally {
    await handle.close();
  }
  if (oversized) {
    rmSync(partial, { force: true });
    throw new PullError(
      'oversized',
      `${file}: the server sent more than the ${total} bytes it announced; the download was discarded`,
    );
  }
  if (total !== null && received !== total) {
    throw new PullError(
      'network',
      `${file}: the download ended after ${received} of ${total} bytes; run the pull again to resume`,
    );
  }
}

async function hashFile(file: string, hash: Hash): Promise<string> {
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function header(response: ResponseFacts, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function stripQuotes(value: string | undefined): string | undefined {
  return value?.replace(/^W\//, '').replace(/^"|"$/g, '').toLowerCase();
}
