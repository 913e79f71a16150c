import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every `.ts` module under `root` (tests left out) with the modules of the same tree it imports. */
export function moduleGraph(root: string): Map<string, string[]> {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(root, file));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    // preProcessFile lists static, type-only and dynamic `import()` specifiers alike: a cycle through a
    // lazy import is still a cycle in the design, and it is how the last one hid.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')))
      .filter((target) => known.has(target));
    graph.set(
      relative(root, file),
      [...new Set(targets)].map((target) => relative(root, target)),
    );
  }
  return graph;
}

/** The import cycles of a graph, each as the path that closes it (`a → b → a`); empty when there are none. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (module: string) => {
    state.set(module, 'open');
    path.push(module);
    for (const next of graph.get(module) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(module, 'done');
  };
  for (const module of [...graph.keys()].sort()) if (!state.has(module)) visit(module);
  return cycles;
}
