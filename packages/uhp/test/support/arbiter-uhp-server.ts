import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authPlugin, createKeyAuthenticator } from '@arbiter/auth';
import { type UhpPluginOptions, uhpMigrations, uhpPlugin } from '@arbiter/harness-server';
import { openDatabase } from '@arbiter/storage';
import Fastify from 'fastify';

export interface ArbiterUhpServer {
  /** `http://127.0.0.1:<port>/api/harness` */
  readonly baseURL: string;
  close(): Promise<void>;
}

/**
 * Arbiter's real UHP plugin on 127.0.0.1:0 with a real SQLite file in a temporary directory and the
 * offline model, authenticating the given keys (each its own principal).
 */
export async function startArbiterUhpServer(
  keys: readonly string[],
  options: Partial<Pick<UhpPluginOptions, 'offlineChunkDelayMs'>> = {},
): Promise<ArbiterUhpServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-uhp-client-'));
  const db = openDatabase(dataDir, uhpMigrations);
  // Teardown ends every connection: a client's pooled connection that never sent a request would
  // otherwise hold close() open on Node 20 (the server proper ends those in connection-limits.ts).
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const principals = new Map(
    keys.map((key, index) => [key, { id: `principal-${index}`, name: `principal-${index}` }]),
  );
  const authenticateKey = (token: string) => {
    const principal = principals.get(token);
    return principal ? { principal, role: 'member' as const } : null;
  };
  await app.register(authPlugin, { authenticator: createKeyAuthenticator({ authenticateKey }) });
  await app.register(uhpPlugin, {
    prefix: '/api/harness',
    db,
    dataDir,
    offlineChunkDelayMs: options.offlineChunkDelayMs ?? 0,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    baseURL: `${address}/api/harness`,
    async close() {
      await app.close();
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
