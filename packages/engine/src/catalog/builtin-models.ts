import type { CatalogModel } from './catalog-config.js';

/** The embedded model: served by the built-in engine on a fresh machine with no configuration. */
export const BUILTIN_MODELS: readonly CatalogModel[] = [
  {
    name: 'arbiter-1.0.0',
    description:
      'Built-in deterministic engine: tool-call analysers for the tool-gate pack, conservative lexical evidence for any other question.',
    release_date: '2026-11-22',
    engine: { kind: 'builtin' },
  },
];
