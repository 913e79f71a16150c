import {
  CatalogConfigError,
  DEFAULT_ENGINE_KINDS,
  ModelCatalog,
  type ModelListing,
} from '@arbiter/engine/catalog';
import { RECOMMENDED_MODELS, withLocalModels } from '@arbiter/engine/models';
import { loadServerConfig, ServerConfigError } from '@arbiter/server';
import { invocationIo, invocationStdout } from '../../invocation-io.js';
import { formatTextTable } from '../text-table.js';
import { EXIT_FAILURE, UsageError } from '../usage-error.js';
import { modelCacheOf } from './cache-action.js';
import { formatBytes } from './pull-progress.js';

export interface ModelsOptions {
  config?: string;
  url?: string;
  modelsDir?: string;
  json?: boolean;
}

export async function listModels(options: ModelsOptions): Promise<number> {
  const cache = modelCacheOf(options.modelsDir);
  let models: ModelListing[];
  if (options.url) {
    const response = await fetch(new URL('/v1/models', options.url), {
      headers: process.env.ARBITER_API_KEY ? { authorization: `Bearer ${process.env.ARBITER_API_KEY}` } : {},
    });
    const body = (await response.json()) as { models?: ModelListing[]; error?: { message: string } };
    if (!response.ok || !body.models) {
      invocationIo().writeStderr(
        `arbiter models: ${response.status}: ${body.error?.message ?? 'unexpected response'}\n`,
      );
      return EXIT_FAILURE;
    }
    models = body.models;
  } else {
    try {
      const config = options.config ? loadServerConfig(options.config).catalog : undefined;
      // The catalog `arbiter serve` would build here: configuration plus the pulled models.
      const local = withLocalModels(config, cache, Object.keys(DEFAULT_ENGINE_KINDS));
      // Listing answers no question, so no pack analyser is needed.
      models = new ModelCatalog({ config: local.config, analysers: [], modelCacheDir: cache.root }).list();
    } catch (error) {
      if (ServerConfigError.isInstance(error) || CatalogConfigError.isInstance(error))
        throw new UsageError(error.message);
      throw error;
    }
  }

  const local = cache.installed().map(({ manifest, dir, bytes }) => ({
    name: manifest.name,
    repo: manifest.repo,
    revision: manifest.revision,
    engine: manifest.engineKind,
    licence: manifest.licence,
    bytes,
    pulled_at: manifest.pulledAt,
    dir,
  }));
  const incomplete = cache
    .incomplete()
    .map(({ repo, revision, bytes, dir }) => ({ repo, revision, bytes, dir }));
  const recommended = RECOMMENDED_MODELS.map((model) => ({
    name: model.name,
    pin: model.pin,
    engine: model.engineKind,
    repo: model.repo,
    revision: model.revision,
    licence: model.licence,
    approximate_bytes: model.files.reduce((sum, file) => sum + (file.approximateBytes ?? 0), 0),
    reported_accuracy: model.reportedAccuracy,
    pulled: local.some((entry) => entry.name === model.name),
  }));

  if (options.json) {
    invocationIo().writeStdout(
      `${JSON.stringify({ models, local, incomplete, recommended, models_dir: cache.root }, null, 2)}\n`,
    );
    return 0;
  }
  const rows = models.map((model) => [
    model.name,
    model.kind ?? '',
    model.target ?? model.name,
    model.engine ?? '',
    model.release_date,
  ]);
  const out = invocationStdout();
  out.write(formatTextTable(['name', 'kind', 'answers as', 'engine', 'released'], rows));
  out.write(`\nModel cache: ${cache.root}\n`);
  if (local.length === 0 && incomplete.length === 0) out.write('  (empty)\n');
  else {
    out.write(
      formatTextTable(
        ['model', 'revision', 'engine', 'size', 'licence', 'pulled'],
        [
          ...local.map((entry) => [
            entry.name ?? entry.repo,
            entry.revision.slice(0, 12),
            entry.engine ?? '',
            formatBytes(entry.bytes),
            entry.licence ?? 'not stated',
            entry.pulled_at.slice(0, 10),
          ]),
          ...incomplete.map((entry) => [
            entry.repo,
            entry.revision.slice(0, 12),
            '',
            formatBytes(entry.bytes),
            '',
            'incomplete: pull again to resume',
          ]),
        ],
      ),
    );
  }
  out.write(
    '\nRecommended (arbiter models pull <name>); accuracy as reported by each model card, not measured by Arbiter:\n',
  );
  out.write(
    formatTextTable(
      ['name', 'engine', 'size', 'licence', 'reported accuracy', 'pulled'],
      recommended.map((model) => [
        model.name,
        model.engine,
        `~${formatBytes(model.approximate_bytes)}`,
        model.licence,
        model.reported_accuracy
          ? `${model.reported_accuracy.value} (${metricHead(model.reported_accuracy.metric)})`
          : 'none reported',
        model.pulled ? 'yes' : 'no',
      ]),
    ),
  );
  return 0;
}

/**
 * The metric's name up to its first comma outside parentheses: the table shows "AllNLI dev
 * accuracy" and "S1Bench macro accuracy over its 13 subsets (3,880 items)", never a clause cut
 * inside its parentheses. `--json` gives the whole text.
 */
export function metricHead(metric: string): string {
  let depth = 0;
  for (let index = 0; index < metric.length; index++) {
    const character = metric[index];
    if (character === '(') depth += 1;
    else if (character === ')') depth = Math.max(0, depth - 1);
    else if (character === ',' && depth === 0) return metric.slice(0, index);
  }
  return metric;
}
