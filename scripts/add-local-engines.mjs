#!/usr/bin/env node
// Adds the local-model runtimes to this checkout: node-llama-cpp (the `llama-cpp` engine kind) and
// onnxruntime-node (the `nli` engine kind, and the model `npm start` pulls). The default install
// leaves them out: with their prebuilt binaries for every platform and GPU they weigh about 1 GB.
// They are optional peer dependencies of @arbiter/engine; this installs them at the versions its
// package.json declares, from the npm registry, with npm's own progress.
//
//   npm run add-local-engines                 both runtimes
//   npm run add-local-engines -- --check      exit 0 when both are installed, 1 otherwise; installs nothing
//
// `--no-save` keeps package.json and package-lock.json as they are, so a later `npm install` or
// `npm ci` removes the runtimes again; run this once more afterwards. Their install scripts do not
// run (`allowScripts` in the root package.json): onnxruntime-node's would fetch a CUDA provider from
// NuGet, outside the npm registry, and node-llama-cpp's would offer to build llama.cpp; the
// prebuilt binaries in the npm packages are what the engines load.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const engineDir = join(root, 'packages', 'engine');
const { peerDependencies } = JSON.parse(readFileSync(join(engineDir, 'package.json'), 'utf8'));
const require = createRequire(join(engineDir, 'package.json'));
const installed = (name) => {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
};
const missing = Object.keys(peerDependencies).filter((name) => !installed(name));

if (process.argv.includes('--check')) {
  if (missing.length > 0) console.error(`local-model runtimes missing: ${missing.join(', ')}`);
  process.exit(missing.length > 0 ? 1 : 0);
}
if (missing.length === 0) {
  console.log(`local-model runtimes already installed: ${Object.keys(peerDependencies).join(', ')}`);
  process.exit(0);
}
const specs = Object.entries(peerDependencies).map(([name, range]) => `${name}@${range}`);
console.log(`Adding the local-model runtimes ${specs.join(', ')} (about 1 GB with their prebuilt binaries)`);
const started = performance.now();
const npm = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', ...specs], {
  cwd: root,
  stdio: 'inherit',
});
if (npm.status !== 0) process.exit(npm.status ?? 1);
console.log(
  `Added in ${Math.round((performance.now() - started) / 1000)} s. The nli and llama-cpp engine kinds can run.`,
);
