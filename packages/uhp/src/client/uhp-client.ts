import {
  type Capabilities,
  type Discovery,
  discoverySchema,
  type UhpCapabilityName,
} from '../wire/discovery.js';
import type { Harness } from '../wire/harness.js';
import type { ResourceContext } from './resource-context.js';
import { Containers } from './resources/containers.js';
import { Files } from './resources/files.js';
import { Harnesses } from './resources/harnesses.js';
import { Models } from './resources/models.js';
import { Responses } from './resources/responses.js';
import { Sessions } from './resources/sessions.js';
import { UhpCapabilityError } from './uhp-capability-error.js';
import { UhpHttp, type UhpHttpOptions } from './uhp-http.js';
import { UhpProtocolVersionError } from './uhp-protocol-version-error.js';

export type UhpClientOptions = UhpHttpOptions;

/** What `connect()` learned: the discovery document and the caller's harnesses. */
export interface UhpConnection {
  readonly discovery: Discovery;
  readonly harnesses: Harness[];
  /** Whether a bearer key was sent (and accepted, since listing harnesses succeeded). */
  readonly authenticated: boolean;
}

/**
 * A client for any UHP 2026-08-11 server. Resources mirror the REST paths
 * (`client.responses.stream(…)` is `POST /v1/responses` with `stream: true`).
 *
 * ```ts
 * const client = new UhpClient({ baseURL: 'http://127.0.0.1:8080/api/harness', apiKey });
 * const { harnesses } = await client.connect();
 * const stream = await client.responses.stream({ input: 'Summarise README.md', metadata: { harness_id: harnesses[0]!.id } });
 * for await (const event of stream) if (event.type === 'text-delta') process.stdout.write(event.delta);
 * ```
 */
export class UhpClient {
  readonly http: UhpHttp;
  readonly harnesses: Harnesses;
  readonly models: Models;
  readonly responses: Responses;
  readonly sessions: Sessions;
  readonly files: Files;
  readonly containers: Containers;
  #discovery: Promise<Discovery> | null = null;

  constructor(options: UhpClientOptions) {
    this.http = new UhpHttp(options);
    const context: ResourceContext = {
      http: this.http,
      require: async (capability, operation) => {
        if (!(await this.#has(capability))) throw new UhpCapabilityError(capability, operation);
      },
      has: (capability) => this.#has(capability),
    };
    this.harnesses = new Harnesses(context);
    this.models = new Models(context);
    this.responses = new Responses(context);
    this.sessions = new Sessions(context);
    this.files = new Files(context);
    this.containers = new Containers(context);
  }

  /** `GET /v1/uhp`, read once per client; capabilities gate every later call. */
  discover(): Promise<Discovery> {
    this.#discovery ??= this.http
      .json({ method: 'GET', path: '/v1/uhp', idempotent: true, anonymous: true }, (value) =>
        discoverySchema.parse(value),
      )
      .catch((error: unknown) => {
        this.#discovery = null; // a failed discovery must not poison later attempts
        throw error;
      });
    return this.#discovery;
  }

  async capabilities(): Promise<Capabilities> {
    return (await this.discover()).capabilities;
  }

  /** Discovery plus the harness list; fails clearly when the server cannot speak our version. */
  async connect(): Promise<UhpConnection> {
    const discovery = await this.discover();
    if (!discovery.versions.includes(this.http.version)) {
      throw new UhpProtocolVersionError(this.http.version, discovery.versions);
    }
    const harnesses = await this.harnesses.list();
    return { discovery, harnesses, authenticated: this.http.hasApiKey };
  }

  async #has(capability: UhpCapabilityName): Promise<boolean> {
    return (await this.capabilities())[capability] === true;
  }
}
