import { resolveConfigDir, type SavedConnection, UhpClient, UhpLocalStore } from '@arbiter/uhp';

export { UHP_API_KEY_ENV } from './api-key-env.js';

export interface UhpCommandContext {
  readonly store: UhpLocalStore;
  readonly connection: SavedConnection;
  readonly client: UhpClient;
}

export function createClientFor(url: string, apiKey: string | undefined): UhpClient {
  return new UhpClient({ baseURL: url, apiKey });
}

export function openLocalStore(): Promise<UhpLocalStore> {
  return UhpLocalStore.open(resolveConfigDir());
}

/** The active saved connection and a client for it, or a clear error telling how to make one. */
export async function openUhpContext(): Promise<UhpCommandContext> {
  const store = await openLocalStore();
  const connection = store.activeConnection();
  if (connection === null)
    throw new Error('Not connected to a UHP server; run `arbiter uhp connect <url>` first.');
  return { store, connection, client: createClientFor(connection.url, connection.apiKey) };
}
