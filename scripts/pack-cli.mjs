#!/usr/bin/env node
// Packs the `arbiter` CLI into one self-contained npm tarball: @arbiter/cli with every package it
// needs at run time bundled inside it: the workspace packages (not published to any registry) and
// their third-party dependencies at the versions this repository installed and tested. npm treats
// the dependencies of a bundled package as part of the bundle, so bundling the workspace packages
// alone would install their dependencies as empty folders. `npm install -g <tarball>` then needs
// no registry at all and gives a working `arbiter` with no repository beside it. The bundle holds
// native modules built here (better-sqlite3), so a tarball serves this platform and Node ABI.
//
// Left out: the local-model runtimes (node-llama-cpp with its ~700 MB of prebuilt binaries,
// onnxruntime-node, ~290 MB), optional peer dependencies of the engine, even where this checkout
// has added them: the bundled engine's `llama-cpp` and `nli` kinds then answer `engine_unavailable`
// naming the `npm install -g` that adds them beside the command. The engine's word-vector table
// (5.8 MB) is in its `word-vectors/` folder, part of what `npm pack` takes from it.
//
// better-sqlite3 goes in as the binary built here, without its C sources (about 10 MB, 2.8 MB
// packed), so the tarball serves this platform and Node ABI: its install script keeps that binary
// when it loads and otherwise asks prebuild-install for one (GitHub); nothing compiles at install.
// Run after `npm run build`.
//
//   node scripts/pack-cli.mjs [--out DIR]      prints the tarball's path
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
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
const LEFT_OUT = ['node-llama-cpp', 'onnxruntime-node'];
const leftOut = (name) => LEFT_OUT.includes(name) || name.startsWith('@node-llama-cpp/');

/**
 * The gate analysis loads its shell grammars as WebAssembly (web-tree-sitter reads the package's
 * `.wasm`); the packages' C sources and native prebuilds for six platforms (about 30 MB) are never
 * loaded by the command, so the bundled copies keep only the grammar, the manifest and the licence.
 * Their install script, which picks or builds the native binding, goes with the sources.
 */
const WASM_GRAMMARS = {
  'tree-sitter-bash': 'tree-sitter-bash.wasm',
  'tree-sitter-powershell': 'tree-sitter-powershell.wasm',
};

/** The binding better-sqlite3 loads (through `bindings`), relative to its package folder. */
const SQLITE_BINARY = 'build/Release/better_sqlite3.node';

/**
 * web-tree-sitter ships its runtime twice (a debug build beside the release one) and its C sources;
 * the gate imports the package's main entry, which loads the release `tree-sitter.wasm`.
 */
const WEB_TREE_SITTER_KEPT = [
  'package.json',
  'LICENSE',
  'tree-sitter.js',
  'tree-sitter.cjs',
  'tree-sitter.wasm',
];

/**
 * Folders at a package's root that hold its tests, documentation, examples or benchmarks; no
 * package loads them at run time (kept where the package's entry points name them).
 */
const UNLOADED_FOLDERS = [
  'test',
  'tests',
  '__tests__',
  'docs',
  '.github',
  'benchmark',
  'benchmarks',
  'example',
  'examples',
];

/**
 * The folders of the CLI's production dependencies, reached without passing through a left-out
 * runtime: where a checkout has added the runtimes, their own dependencies (a TypeScript compiler,
 * build tools) stay out too. The dependencies of the shell grammars (node-addon-api,
 * node-gyp-build) serve only the native binding the bundle leaves out, so the walk stops there. `npm ls --json` lists a package's dependencies at one of its
 * occurrences only (the others are "deduped"), so the walk follows install paths, not the tree.
 */
function productionPaths() {
  const tree = JSON.parse(
    npm(['ls', '--all', '--json', '--long', '--omit=dev', '--workspace', '@arbiter/cli'], root),
  );
  const children = new Map();
  const record = (node) => {
    for (const child of Object.entries(node.dependencies ?? {})) {
      const [, info] = child;
      if (!info.path) continue;
      const known = children.get(info.path) ?? [];
      for (const [name, grandchild] of Object.entries(info.dependencies ?? {}))
        if (grandchild.path) known.push([name, grandchild.path]);
      children.set(info.path, known);
      record(info);
    }
  };
  record(tree);
  const cli = tree.dependencies['@arbiter/cli'];
  const pending = Object.entries(cli.dependencies ?? {}).map(([name, info]) => [name, info.path]);
  const reached = new Set();
  while (pending.length > 0) {
    const [name, path] = pending.pop();
    if (!path || leftOut(name) || reached.has(path)) continue;
    reached.add(path);
    if (!(name in WASM_GRAMMARS)) pending.push(...(children.get(path) ?? []));
  }
  return reached;
}

/**
 * Files the installed command never loads: source maps, type declarations, TypeScript sources and
 * documentation (Node runs the JavaScript; nothing here compiles against the bundle). About half
 * the bundle's bytes. Licence and notice files stay, whatever their extension.
 */
const UNLOADED = /\.(?:map|d\.[cm]?ts|[cm]?tsx?|mdx?|markdown|tsbuildinfo)$|\.(?:test|spec)\.[cm]?js$/;
const KEPT_NOTICE = /^(?:licen[cs]e|notice|copying|authors)/i;

function pruneUnloaded(dir) {
  if (existsSync(join(dir, 'package.json'))) pruneUnloadedFolders(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) pruneUnloaded(path);
    else if (entry.isFile() && UNLOADED.test(entry.name) && !KEPT_NOTICE.test(entry.name)) rmSync(path);
  }
}

/** Removes a package's test, documentation and example folders, unless its entry points name them. */
function pruneUnloadedFolders(dir) {
  const { main, module, browser, exports, bin, name } = readJson(join(dir, 'package.json'));
  if (name === undefined) return; // a nested manifest (`{"type": "module"}`), not a package root
  const entryPoints = JSON.stringify({ main, module, browser, exports, bin });
  for (const folder of UNLOADED_FOLDERS) {
    if (entryPoints.includes(`${folder}/`) || entryPoints.includes(`./${folder}"`)) continue;
    rmSync(join(dir, folder), { recursive: true, force: true });
  }
}

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
  const installed = [...productionPaths()]
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
  for (const [name, wasm] of Object.entries(WASM_GRAMMARS))
    wasmOnly(join(staging, 'package', 'node_modules', name), wasm);
  webTreeSitterReleaseOnly(join(staging, 'package', 'node_modules', 'web-tree-sitter'));
  sqliteBinaryOnly(
    join(root, 'node_modules', 'better-sqlite3'),
    join(staging, 'package', 'node_modules', 'better-sqlite3'),
  );
  pruneUnloaded(join(staging, 'package', 'node_modules'));
  rmSync(join(staging, 'package', 'dist', '.tsbuildinfo'), { force: true });
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

function wasmOnly(dir, wasm) {
  if (!existsSync(join(dir, wasm))) throw new Error(`${dir} has no ${wasm}`);
  const kept = new Set(['package.json', wasm, 'LICENSE', 'README.md']);
  for (const entry of readdirSync(dir)) if (!kept.has(entry)) rmSync(join(dir, entry), { recursive: true });
  const manifest = readJson(join(dir, 'package.json'));
  delete manifest.scripts;
  delete manifest.gypfile;
  manifest.files = [...kept];
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

function webTreeSitterReleaseOnly(dir) {
  if (!existsSync(join(dir, 'tree-sitter.wasm'))) throw new Error(`${dir} has no tree-sitter.wasm`);
  for (const entry of readdirSync(dir))
    if (!WEB_TREE_SITTER_KEPT.includes(entry)) rmSync(join(dir, entry), { recursive: true });
  const manifest = readJson(join(dir, 'package.json'));
  for (const subpath of Object.keys(manifest.exports))
    if (subpath.startsWith('./debug')) delete manifest.exports[subpath];
  manifest.files = WEB_TREE_SITTER_KEPT.filter((file) => file !== 'package.json');
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * better-sqlite3 with the binary built here in place of its sources. Its install script (npm runs
 * the scripts of bundled packages) becomes `arbiter-binary.cjs`, written here: it keeps the packed
 * binary when this Node loads it, and otherwise fetches a prebuilt one as the package's own script
 * would, failing with the reason when none can be had (compiling needs the sources left out).
 */
function sqliteBinaryOnly(installed, dir) {
  const binary = join(installed, SQLITE_BINARY);
  if (!existsSync(binary)) throw new Error(`${binary} is missing: npm rebuild better-sqlite3`);
  for (const entry of ['deps', 'src', 'build', 'binding.gyp'])
    rmSync(join(dir, entry), { recursive: true, force: true });
  mkdirSync(dirname(join(dir, SQLITE_BINARY)), { recursive: true });
  cpSync(binary, join(dir, SQLITE_BINARY));
  const packedFor = `${process.platform}-${process.arch}, Node ${process.version}, ABI ${process.versions.modules}`;
  writeFileSync(
    join(dir, 'arbiter-binary.cjs'),
    `'use strict';
// Written by arbiter's scripts/pack-cli.mjs, which packed this package with the binary built for
// ${packedFor} and without the C sources.
const { spawnSync } = require('node:child_process');
try {
  require('./${SQLITE_BINARY}');
  process.exit(0);
} catch (error) {
  console.error(\`better-sqlite3: the packed binary (${packedFor}) does not load here: \${error.message}; fetching a prebuilt one\`);
}
const fetched = spawnSync(process.execPath, [require.resolve('prebuild-install/bin.js')], { stdio: 'inherit' });
if (fetched.status !== 0) {
  console.error('better-sqlite3: no prebuilt binary could be fetched either; pack the CLI on this platform and Node (npm run pack:cli in a checkout)');
  process.exit(1);
}
`,
  );
  const manifest = readJson(join(dir, 'package.json'));
  delete manifest.gypfile;
  manifest.scripts = { install: 'node arbiter-binary.cjs' };
  manifest.files = ['lib/**', SQLITE_BINARY, 'arbiter-binary.cjs'];
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}
