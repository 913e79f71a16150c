import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, moduleGraph } from './support/module-graph.js';

describe("the CLI's modules", () => {
  it('import one another without a cycle, lazy imports included', () => {
    const cycles = importCycles(moduleGraph(resolve(import.meta.dirname, '../src')));
    expect(cycles.map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('are checked by a cycle finder that does find cycles', () => {
    const graph = new Map([
      ['program.ts', ['commands/gate.ts']],
      ['commands/gate.ts', ['commands/gate-daemon.ts']],
      ['commands/gate-daemon.ts', ['cli-run.ts']],
      ['cli-run.ts', ['program.ts']],
      ['bin.ts', ['cli-run.ts']],
    ]);
    expect(importCycles(graph)).toEqual([
      ['cli-run.ts', 'program.ts', 'commands/gate.ts', 'commands/gate-daemon.ts', 'cli-run.ts'],
    ]);
  });
});
