import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { describeNetworkFailure, explainNetworkFailure } from './network-failure.js';
import { PullError } from './pull-error.js';

/** What the Hub's model API says about one revision (`GET /api/models/<repo>/revision/<rev>`). */
export interface RepositoryRevision {
  /** The commit the revision resolves to. */
  readonly commit: string;
  readonly files: readonly string[];
  /** The licence the card declares, or null when it declares none. */
  readonly licence: string | null;
}

const revisionSchema = z.object({
  sha: z.string().regex(/^[0-9a-f]{40}$/),
  siblings: z.array(z.object({ rfilename: z.string() })).default([]),
  cardData: z
    .object({ license: z.union([z.string(), z.array(z.string())]).optional() })
    .loose()
    .nullish(),
  tags: z.array(z.string()).default([]),
});

export async function fetchRepositoryRevision(
  endpoint: string,
  repo: string,
  revision: string,
  context: { dispatcher: Dispatcher; token?: string | undefined; signal?: AbortSignal | undefined },
): Promise<RepositoryRevision> {
  const { request } = await import('undici');
  const url = `${endpoint}/api/models/${repo}/revision/${encodeURIComponent(revision)}`;
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, {
      headers: {
        'user-agent': 'arbiter-models-pull',
        ...(context.token ? { authorization: `Bearer ${context.token}` } : {}),
      },
      dispatcher: context.dispatcher,
      signal: context.signal,
      // A renamed repository answers with a redirect to its new name.
      maxRedirections: 5,
    });
  } catch (error) {
    const failure = explainNetworkFailure(error, url);
    throw new PullError('network', `${repo}: ${describeNetworkFailure(failure)}`, {
      cause: error,
      reason: failure.reason,
    });
  }
  if (response.statusCode !== 200) {
    await response.body.dump();
    if (response.statusCode === 404 || response.statusCode === 401) {
      // The Hub answers 401 for a repository that does not exist as well as for a private one.
      throw new PullError(
        'not_found',
        `${repo}@${revision}: no such repository or revision (${response.statusCode})`,
      );
    }
    if (response.statusCode === 403) throw new PullError('forbidden', `${repo}: access refused (403)`);
    throw new PullError('http_error', `${repo}@${revision}: the model API answered ${response.statusCode}`);
  }
  const parsed = revisionSchema.safeParse(await response.body.json());
  if (!parsed.success)
    throw new PullError('http_error', `${repo}@${revision}: unexpected answer from the model API`);
  const cardLicence = parsed.data.cardData?.license;
  const tagLicence = parsed.data.tags.find((tag) => tag.startsWith('license:'))?.slice('license:'.length);
  return {
    commit: parsed.data.sha,
    files: parsed.data.siblings.map((sibling) => sibling.rfilename),
    licence: (Array.isArray(cardLicence) ? cardLicence[0] : cardLicence) ?? tagLicence ?? null,
  };
}
