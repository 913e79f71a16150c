import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { nodePostgres } from './node-postgres.js';

/** How long to wait before connecting again after the listening connection was lost. */
const RECONNECT_DELAY_MS = 250;

/**
 * The one connection of a process that `LISTEN`s (a pooled client cannot: it is handed to other
 * queries). Handlers of a channel get each payload; when the connection is lost they get `null`
 * once it is back, because notifications sent meanwhile are gone and readers must re-read.
 */
export class PostgresNotifications {
  readonly #connectionString: string;
  readonly #handlers = new EventEmitter().setMaxListeners(0);
  readonly #channels = new Set<string>();
  #client: pg.Client | null = null;
  #connecting: Promise<pg.Client> | null = null;
  #closed = false;
  #retry: NodeJS.Timeout | null = null;

  constructor(
    connectionString: string,
    private readonly onError: (error: Error) => void = () => {},
  ) {
    this.#connectionString = connectionString;
  }

  async listen(channel: string, handler: (payload: string | null) => void): Promise<() => Promise<void>> {
    assertChannel(channel);
    this.#handlers.on(channel, handler);
    const client = await this.#connect();
    if (!this.#channels.has(channel)) {
      this.#channels.add(channel);
      await client.query(`LISTEN ${channel}`);
    }
    return async () => {
      this.#handlers.off(channel, handler);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }

  #connect(): Promise<pg.Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= (async () => {
      const client = new (nodePostgres().Client)({ connectionString: this.#connectionString });
      client.on('notification', (message) => this.#handlers.emit(message.channel, message.payload ?? ''));
      client.on('error', (error) => {
        this.onError(error);
        this.#lost(client);
      });
      client.on('end', () => this.#lost(client));
      try {
        await client.connect();
        for (const channel of this.#channels) await client.query(`LISTEN ${channel}`);
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      } finally {
        this.#connecting = null;
      }
      this.#client = client;
      return client;
    })();
    return this.#connecting;
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = null;
    client.end().catch(() => undefined);
    this.#reconnect();
  }

  #reconnect(): void {
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = null;
      if (this.#closed) return;
      this.#connect().then(
        () => {
          for (const channel of this.#channels) this.#handlers.emit(channel, null);
        },
        (error: Error) => {
          this.onError(error);
          this.#reconnect();
        },
      );
    }, RECONNECT_DELAY_MS);
    this.#retry.unref();
  }
}

/** Channel names are ours (`arbiter_events`, …); checked because LISTEN cannot take a parameter. */
function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
}
