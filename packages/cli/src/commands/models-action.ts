import { CatalogConfigError, ModelCatalog, type ModelListing } from '@arbiter/engine/catalog';
import { loadServerConfig, ServerConfigError } from '@arbiter/server';
import { formatTextTable } from './text-table.js';
import { EXIT_FAILURE, UsageError } from './usage-error.js';

export interface ModelsOptions {
  config?: string;
  url?: string;
  json?: boolean;
}

export async function listModels(options: ModelsOptions): Promise<number> {
  let models: ModelListing[];
  if (options.url) {
    const response = await fetch(new URL('/v1/models', options.url), {
      headers: process.env.ARBITER_API_KEY ? { authorization: `Bearer ${process.env.ARBITER_API_KEY}` } : {},
    });
    const body = (await response.json()) as { models?: ModelListing[]; error?: { message: string } };
    if (!response.ok || !body.models) {
      process.stderr.write(
        `arbiter models: ${response.status}: ${body.error?.message ?? 'unexpected response'}\n`,
      );
      return EXIT_FAILURE;
    }
    models = body.models;
  } else {
    try {
      models = new ModelCatalog({
        config: options.config ? loadServerConfig(options.config).catalog : undefined,
      }).list();
    } catch (error) {
      if (ServerConfigError.isInstance(error) || CatalogConfigError.isInstance(error))
        throw new UsageError(error.message);
      throw error;
    }
  }
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ models }, null, 2)}\n`);
    return 0;
  }
  const rows = models.map((model) => [
    model.name,
    model.kind ?? '',
    model.target ?? model.name,
    model.engine ?? '',
    model.release_date,
  ]);
  process.stdout.write(formatTextTable(['name', 'kind', 'answers as', 'engine', 'released'], rows));
  return 0;
}
