import { type FileObject, fileObjectSchema } from '../../wire/file.js';
import type { ResourceContext } from '../resource-context.js';

/** `POST /v1/files`: uploads for use as task input (`input_file` with `file_id`). */
export class Files {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  async upload(content: Blob, filename: string, purpose = 'user_data'): Promise<FileObject> {
    await this.#context.require('files_input', 'uploading a file');
    const form = new FormData();
    form.set('purpose', purpose);
    form.set('file', content, filename);
    return this.#context.http.json(
      { method: 'POST', path: '/v1/files', body: form, idempotent: false },
      (value) => fileObjectSchema.parse(value),
    );
  }
}
