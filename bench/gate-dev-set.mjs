// The tool-gate development set and the in-process gate the benches measure (shared by
// gate-accuracy.mjs and gate-speed.mjs). Run `npx tsc -b` first: the benches import the build.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The shared design folder sits beside the main checkout; a worktree under /work/wt is one level deeper.
export const devSetPath =
  process.env.ARBITER_GATE_DEV_SET ??
  [
    resolve(repositoryRoot, '../shared/gate-dev/dcg-cases.jsonl'),
    resolve(repositoryRoot, '../../shared/gate-dev/dcg-cases.jsonl'),
  ].find((path) => existsSync(path)) ??
  resolve(repositoryRoot, '../shared/gate-dev/dcg-cases.jsonl');

/** The hand-written adversarial set, per principle of issue 14 (see bench/data/README.md). */
export const adversarialSetPath = resolve(repositoryRoot, 'bench/data/gate-adversarial.jsonl');

/** Cases written after the rules and measured before any rule was changed for them (bench/data/README.md). */
export const holdoutSetPath = resolve(repositoryRoot, 'bench/data/gate-holdout.jsonl');

/** The cases: `{ id, state, expect: 'allow' | 'deny', note }`. */
export function readDevSet(path = devSetPath) {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** The gate as `arbiter gate` builds it by default: the built-in engine with the tool-gate analysis, in process. */
export async function createInProcessGate(options = {}) {
  const { DecisionClient, createInProcessTransport } = await import('@arbiter/decision');
  const { BUILTIN_MODELS, createBuiltinEngine } = await import('@arbiter/engine');
  const { createToolGate, TOOL_GATE_PACK } = await import('@arbiter/tool-gate');
  const { createToolGateAnalyser } = await import('@arbiter/tool-gate-analysis');
  const engine = createBuiltinEngine({
    analysers: [createToolGateAnalyser(TOOL_GATE_PACK.definition.thresholds)],
  });
  const client = new DecisionClient({
    transport: createInProcessTransport({ engine, model: BUILTIN_MODELS[0].name }),
    redact: false,
  });
  return createToolGate({ client, ...options });
}
