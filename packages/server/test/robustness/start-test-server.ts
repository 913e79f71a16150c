import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningServer, type StartServerOptions, startServer } from '../../src/server.js';

/** `arbiter serve` as `startServer` runs it: a real data directory, a real port, a real key. */
export async function startTestServer(
  options: StartServerOptions = {},
): Promise<RunningServer & { key: string; cleanup(): Promise<void> }> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-robust-'));
  const server = await startServer({ port: 0, dataDir, ...options });
  return {
    ...server,
    key: server.initialKey ?? '',
    async cleanup() {
      await server.close();
      // Only a directory made here; a caller's dataDir is the caller's to remove.
      if (options.dataDir === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
