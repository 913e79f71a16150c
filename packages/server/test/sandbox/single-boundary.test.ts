import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every task program starts through ProcessSandbox: no other module of the server or of the harness
// server it mounts may start processes. There is no exception: even the host lookup of `soffice`
// is the sandbox's own `executable-lookup.ts`, which walks PATH without starting anything.
const packages = path.resolve(import.meta.dirname, '../../..');
const SOURCES = ['server/src', 'harness-server/src'];
const SANDBOX = 'harness-server/src/uhp/sandbox/';

function modules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return modules(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('one isolation boundary', () => {
  it('no server module but the sandbox starts a process', () => {
    // Any import of child_process but `import type` (a ChildProcess handle starts nothing).
    const spawning = SOURCES.flatMap((source) => modules(path.join(packages, source)))
      .filter((file) =>
        /^import\s+(?!type\s)[^;]*from\s+'(node:)?child_process'|require\(\s*'(node:)?child_process'/m.test(
          fs.readFileSync(file, 'utf8'),
        ),
      )
      .map((file) => path.relative(packages, file))
      .filter((file) => !file.startsWith(SANDBOX));
    expect(spawning).toEqual([]);
    // The sandbox itself is among the modules read, so a move that left it outside both sources
    // would not pass unnoticed.
    expect(fs.existsSync(path.join(packages, SANDBOX, 'process-sandbox.ts'))).toBe(true);
  });
});
