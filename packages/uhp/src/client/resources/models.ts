import { type ModelCatalogBody, modelCatalogSchema } from '../../wire/model.js';
import type { ResourceContext } from '../resource-context.js';

/** `/v1/models`: the server's catalogue by backend, with computed availability. */
export class Models {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  list(): Promise<ModelCatalogBody> {
    return this.#context.http.json({ method: 'GET', path: '/v1/models', idempotent: true }, (value) =>
      modelCatalogSchema.parse(value),
    );
  }
}
