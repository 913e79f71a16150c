import { z } from 'zod';
import {
  type Harness,
  type HarnessCreate,
  type HarnessUpdate,
  harnessListSchema,
  harnessSchema,
  type SkillFile,
  skillFileListSchema,
} from '../../wire/harness.js';
import { type HarnessModels, harnessModelsSchema } from '../../wire/model.js';
import { pathId, type ResourceContext } from '../resource-context.js';
import { readSseMessages } from '../sse-reader.js';

// The wire folder has no schema for this small acknowledgement, so it is declared beside its one use.
const harnessDeletedSchema = z.looseObject({ id: z.string(), deleted: z.boolean() });
export type HarnessDeleted = z.infer<typeof harnessDeletedSchema>;

/** `/v1/harnesses`: the configured harnesses a client selects from. */
export class Harnesses {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  async list(options: { signal?: AbortSignal } = {}): Promise<Harness[]> {
    const body = await this.#context.http.json(
      { method: 'GET', path: '/v1/harnesses', signal: options.signal, idempotent: true },
      (value) => harnessListSchema.parse(value),
    );
    return body.harnesses;
  }

  retrieve(harnessId: string, options: { signal?: AbortSignal } = {}): Promise<Harness> {
    return this.#context.http.json(
      { method: 'GET', path: `/v1/harnesses/${pathId(harnessId)}`, signal: options.signal, idempotent: true },
      (value) => harnessSchema.parse(value),
    );
  }

  async create(body: HarnessCreate): Promise<Harness> {
    await this.#context.require('harness_management', 'creating a harness');
    return this.#context.http.json(
      { method: 'POST', path: '/v1/harnesses', body, idempotent: false },
      (value) => harnessSchema.parse(value),
    );
  }

  async update(harnessId: string, body: HarnessUpdate): Promise<Harness> {
    await this.#context.require('harness_management', 'updating a harness');
    return this.#context.http.json(
      { method: 'PUT', path: `/v1/harnesses/${pathId(harnessId)}`, body, idempotent: true },
      (value) => harnessSchema.parse(value),
    );
  }

  async delete(harnessId: string): Promise<HarnessDeleted> {
    await this.#context.require('harness_management', 'deleting a harness');
    return this.#context.http.json(
      { method: 'DELETE', path: `/v1/harnesses/${pathId(harnessId)}`, idempotent: true },
      (value) => harnessDeletedSchema.parse(value),
    );
  }

  /** The models this harness may run, its default and its authorised fallback. */
  models(harnessId: string): Promise<HarnessModels> {
    return this.#context.http.json(
      { method: 'GET', path: `/v1/harnesses/${pathId(harnessId)}/models`, idempotent: true },
      (value) => harnessModelsSchema.parse(value),
    );
  }

  async skillFiles(harnessId: string, skillId: string): Promise<SkillFile[]> {
    const body = await this.#context.http.json(
      {
        method: 'GET',
        path: `/v1/harnesses/${pathId(harnessId)}/skills/${pathId(skillId)}/files`,
        idempotent: true,
      },
      (value) => skillFileListSchema.parse(value),
    );
    return body.files;
  }

  /** The live event feed of this harness's sessions; each message's `data` parsed as JSON. */
  async *events(harnessId: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<unknown> {
    await this.#context.require('streaming', 'following harness events');
    const response = await this.#context.http.send({
      method: 'GET',
      path: `/v1/harnesses/${pathId(harnessId)}/events`,
      headers: { accept: 'text/event-stream' },
      signal: options.signal,
      idempotent: true,
    });
    if (!response.body) return;
    for await (const message of readSseMessages(response.body)) yield JSON.parse(message.data);
  }
}
