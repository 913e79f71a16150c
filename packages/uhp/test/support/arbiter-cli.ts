import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The committed launcher of the real `arbiter` command; it imports packages/cli/dist (run `npx tsc -b`). */
export const ARBITER_BIN = fileURLToPath(new URL('../../../cli/bin/arbiter.js', import.meta.url));
const BUILT_ENTRY = fileURLToPath(new URL('../../../cli/dist/bin.js', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function assertCliBuilt(): void {
  if (!existsSync(BUILT_ENTRY))
    throw new Error('packages/cli is not built; run `npx tsc -b` before these tests.');
}

/** Spawns `arbiter …` with the given environment additions (never the parent's config directory). */
export function spawnArbiter(args: readonly string[], env: Record<string, string>): ChildProcess {
  assertCliBuilt();
  return spawn(process.execPath, [ARBITER_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: env.HOME ?? '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function runArbiter(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawnArbiter(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
