import { pathId, type ResourceContext } from '../resource-context.js';

/** `/v1/containers/{cid}/files/{fid}`: artifact bytes and previews. */
export class Containers {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /** The raw bytes with the file's own media type; the response, so large files can be streamed. */
  content(containerId: string, fileId: string, options: { signal?: AbortSignal } = {}): Promise<Response> {
    return this.#context.http.send({
      method: 'GET',
      path: `/v1/containers/${pathId(containerId)}/files/${pathId(fileId)}/content`,
      headers: { accept: '*/*' },
      signal: options.signal,
      idempotent: true,
    });
  }

  /** A PDF rendering of a document artifact (`501 preview_unavailable` where not implemented). */
  pdf(containerId: string, fileId: string): Promise<Response> {
    return this.#context.http.send({
      method: 'GET',
      path: `/v1/containers/${pathId(containerId)}/files/${pathId(fileId)}/pdf`,
      headers: { accept: 'application/pdf' },
      idempotent: true,
    });
  }
}
