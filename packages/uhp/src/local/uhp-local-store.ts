import { chmod, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '@arbiter/atomic-file';
import { z } from 'zod';

const savedConnectionSchema = z.object({
  url: z.string(),
  apiKey: z.string().optional(),
  harnessId: z.string().optional(),
  protocolVersion: z.string(),
  conformanceClass: z.string(),
  savedAt: z.number(),
});
/** A server the user connected to; `apiKey` is stored (mode 0600) and never printed back. */
export type SavedConnection = z.infer<typeof savedConnectionSchema>;

const savedSessionSchema = z.object({
  name: z.string(),
  server: z.string(),
  /** `null` when the server did not say which harness ran it. */
  harnessId: z.string().nullable(),
  sessionId: z.string(),
  lastResponseId: z.string(),
  updatedAt: z.number(),
});
/** What the client remembers of a session so that `--continue` can chain the next task. */
export type SavedSession = z.infer<typeof savedSessionSchema>;

const storeFileSchema = z.object({
  version: z.literal(1),
  active: z.string().nullable(),
  connections: z.record(z.string(), savedConnectionSchema),
  sessions: z.array(savedSessionSchema),
});
type StoreFile = z.infer<typeof storeFileSchema>;

export const UHP_STORE_FILE = 'uhp.json';
/** Older sessions are forgotten locally (the server still lists them) so the file stays small. */
export const MAX_SAVED_SESSIONS = 200;

/**
 * The client's local state in one JSON file in the config directory: saved connections, the active
 * one, and recent sessions. The directory is created 0700 and the file written 0600 via an atomic
 * rename, because it holds API keys.
 */
export class UhpLocalStore {
  readonly directory: string;
  readonly #state: StoreFile;

  private constructor(directory: string, state: StoreFile) {
    this.directory = directory;
    this.#state = state;
  }

  get path(): string {
    return join(this.directory, UHP_STORE_FILE);
  }

  static async open(directory: string): Promise<UhpLocalStore> {
    const path = join(directory, UHP_STORE_FILE);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return new UhpLocalStore(directory, { version: 1, active: null, connections: {}, sessions: [] });
      }
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${path} is not valid JSON; fix or delete it and connect again.`);
    }
    const parsed = storeFileSchema.safeParse(json);
    if (!parsed.success)
      throw new Error(`${path} is not an Arbiter UHP store; fix or delete it and connect again.`);
    return new UhpLocalStore(directory, parsed.data);
  }

  activeConnection(): SavedConnection | null {
    return this.#state.active === null ? null : (this.#state.connections[this.#state.active] ?? null);
  }

  /** Saves the connection and makes it the active one. */
  saveConnection(connection: SavedConnection): void {
    this.#state.connections[connection.url] = connection;
    this.#state.active = connection.url;
  }

  /** Makes `harnessId` the active connection's harness; sessions are kept. */
  useHarness(harnessId: string): void {
    const active = this.activeConnection();
    if (active === null) throw new Error('No active connection; run `arbiter uhp connect <url>` first.');
    this.saveConnection({ ...active, harnessId });
  }

  session(name: string, server: string): SavedSession | null {
    return this.#state.sessions.find((session) => session.name === name && session.server === server) ?? null;
  }

  sessions(server: string): SavedSession[] {
    return this.#state.sessions.filter((session) => session.server === server);
  }

  /** The most recently used session on `server` (optionally of one harness). */
  latestSession(server: string, harnessId?: string): SavedSession | null {
    const candidates = this.sessions(server).filter(
      (session) => harnessId === undefined || session.harnessId === harnessId,
    );
    return candidates.sort((a, b) => b.updatedAt - a.updatedAt)[0] ?? null;
  }

  recordSession(session: SavedSession): void {
    const others = this.#state.sessions.filter(
      (saved) => !(saved.name === session.name && saved.server === session.server),
    );
    this.#state.sessions = [session, ...others].slice(0, MAX_SAVED_SESSIONS);
  }

  async save(): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    // mkdir's mode does not apply to a directory that already exists, nor escape the umask.
    await chmod(this.directory, 0o700);
    // Exactly 0600 whatever the umask, before a byte of the keys is written.
    await writeFileAtomic(this.path, `${JSON.stringify(this.#state, null, 2)}\n`, { mode: 0o600 });
  }
}
