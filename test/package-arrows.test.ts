import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importCycles } from '../packages/cli/test/support/module-graph.js';

// The workspace's packages must depend on one another one way only, so that a user who embeds the
// decision client or the tool gate never installs the server, and the harness server can be mounted
// by the server without needing it back. Checked on what the product code imports (static,
// type-only and lazy `import()` alike), not only on what package.json declares. The cycle finder is
// the CLI's, which its own test shows finding cycles.

const root = resolve(import.meta.dirname, '..');

interface WorkspacePackage {
  readonly name: string;
  readonly folder: string;
  readonly dependencies: readonly string[];
}

const workspaces: WorkspacePackage[] = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces as string[]
).map((folder) => {
  const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
  return { name: manifest.name, folder, dependencies: Object.keys(manifest.dependencies ?? {}) };
});
const names = new Set(workspaces.map(({ name }) => name));

/** The workspace package an import specifier names (`@arbiter/engine/catalog` → `@arbiter/engine`). */
function workspacePackageOf(specifier: string): string | undefined {
  const name = specifier.split('/').slice(0, 2).join('/');
  return names.has(name) ? name : undefined;
}

/**
 * The module specifiers a source file imports or re-exports, static, type-only and lazy `import()`
 * alike. Read from the syntax tree rather than by `ts.preProcessFile`, which also reports an import
 * written inside a string (the console shows code snippets that import `@arbiter/decision`).
 */
function moduleSpecifiers(fileName: string, text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined
    ) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) found.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false));
  return found;
}

/** Each workspace package's product modules (tests and test support left out) → the workspace packages they import. */
function importedPackages(pkg: WorkspacePackage): Map<string, Set<string>> {
  const source = join(root, pkg.folder, 'src');
  const imported = new Map<string, Set<string>>();
  const files = readdirSync(source, { recursive: true, encoding: 'utf8' }).filter(
    (file) => /\.tsx?$/.test(file) && !/\.test(-d)?\.tsx?$/.test(file) && !file.endsWith('.d.ts'),
  );
  for (const file of files) {
    for (const specifier of moduleSpecifiers(file, readFileSync(join(source, file), 'utf8'))) {
      const target = workspacePackageOf(specifier);
      if (target === undefined || target === pkg.name) continue;
      if (!imported.has(target)) imported.set(target, new Set());
      imported.get(target)?.add(file);
    }
  }
  return imported;
}

const imports = new Map(workspaces.map((pkg) => [pkg.name, importedPackages(pkg)]));

describe('the workspace packages', () => {
  it('import only the workspace packages they declare as dependencies', () => {
    const undeclared = workspaces.flatMap((pkg) =>
      [...(imports.get(pkg.name)?.entries() ?? [])]
        .filter(([target]) => !pkg.dependencies.includes(target))
        .map(
          ([target, files]) =>
            `${pkg.name} imports ${target} (${[...files].join(', ')}) without declaring it`,
        ),
    );
    expect(undeclared).toEqual([]);
  });

  it('depend on one another without a cycle, declared or imported', () => {
    const declared = new Map(
      workspaces.map((pkg) => [pkg.name, pkg.dependencies.filter((name) => names.has(name))]),
    );
    const imported = new Map([...imports].map(([name, targets]) => [name, [...targets.keys()]]));
    expect(importCycles(declared).map((cycle) => cycle.join(' → '))).toEqual([]);
    expect(importCycles(imported).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('keep the harness server and storage below the server: neither imports it, storage imports only atomic-file', () => {
    for (const lower of [
      '@arbiter/harness-server',
      '@arbiter/storage',
      '@arbiter/json-body',
      '@arbiter/auth',
      '@arbiter/atomic-file',
    ]) {
      expect(names.has(lower)).toBe(true);
      expect([...(imports.get(lower)?.keys() ?? [])]).not.toContain('@arbiter/server');
      expect(workspaces.find(({ name }) => name === lower)?.dependencies).not.toContain('@arbiter/server');
    }
    expect([...(imports.get('@arbiter/storage')?.keys() ?? [])]).toEqual(['@arbiter/atomic-file']);
    // The one atomic file write sits under the light packages (engine, uhp, the tool gate) too, so
    // it imports nothing of the workspace and depends on nothing at all.
    expect([...(imports.get('@arbiter/atomic-file')?.keys() ?? [])]).toEqual([]);
    expect(workspaces.find(({ name }) => name === '@arbiter/atomic-file')?.dependencies).toEqual([]);
    for (const light of ['@arbiter/engine', '@arbiter/uhp', '@arbiter/tool-gate']) {
      expect([...(imports.get(light)?.keys() ?? [])]).toContain('@arbiter/atomic-file');
      expect([...(imports.get(light)?.keys() ?? [])]).not.toContain('@arbiter/storage');
    }
    expect([...(imports.get('@arbiter/json-body')?.keys() ?? [])]).toEqual([]);
    expect([...(imports.get('@arbiter/auth')?.keys() ?? [])]).toEqual([]);
    // The server mounts the harness server; the arrow the test above forbids the other way is real.
    expect([...(imports.get('@arbiter/server')?.keys() ?? [])]).toContain('@arbiter/harness-server');
  });

  it('are checked by a reader that sees type-only and lazy imports of the server, and no import inside a string', () => {
    const text = [
      "import type { A } from '@arbiter/storage';",
      "export { B } from '@arbiter/harness-server';",
      "const agent = await import('@arbiter/server/agent');",
      "type C = import('@arbiter/server').RunningServer;",
      "const snippet = `import { DecisionClient } from '@arbiter/decision';`;",
    ].join('\n');
    expect(moduleSpecifiers('example.ts', text).map(workspacePackageOf)).toEqual([
      '@arbiter/storage',
      '@arbiter/harness-server',
      '@arbiter/server',
      '@arbiter/server',
    ]);
  });
});
