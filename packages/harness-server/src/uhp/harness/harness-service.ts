import type { Harness, HarnessCreate, HarnessUpdate, McpServer } from '@arbiter/uhp/wire';
import { newObjectId } from '../object-id.js';
import type { HarnessRuntime } from '../runtime/harness-runtime.js';
import type { StoredHarness, UhpStore } from '../storage/uhp-store.js';
import { notFound, UhpFailure, unprocessableInput } from '../uhp-error.js';
import { normaliseSkill } from './skill-bundle.js';

/** What a client reads back instead of a credential it sent (and sends back to keep it). */
export const REDACTED = '[redacted]';
const MCP_NAME_UNSAFE = /[^A-Za-z0-9_-]/g;

/**
 * Configured harnesses: creation, replacement, deletion and the per-principal default harness that
 * makes a fresh server run tasks with no setup.
 */
export class HarnessService {
  constructor(
    private readonly store: UhpStore,
    private readonly runtimes: ReadonlyMap<string, HarnessRuntime>,
  ) {}

  supportedBases(): string[] {
    return [...this.runtimes.keys()];
  }

  runtimeFor(base: string): HarnessRuntime | undefined {
    return this.runtimes.get(base);
  }

  /** The principal's default harness, created on first use (and again if they deleted it). */
  async ensureDefault(principalId: string): Promise<StoredHarness> {
    const existing = await this.store.defaultHarness(principalId);
    if (existing) return existing;
    const runtime = this.runtimes.get('agent') ?? [...this.runtimes.values()][0];
    if (!runtime)
      throw new UhpFailure('harness_unavailable', 'This server has no harness runtime configured.');
    const harness: Harness = {
      id: newObjectId('chrn'),
      object: 'harness',
      name: 'Default agent',
      base: runtime.base,
      baseLabel: runtime.label,
      defaultModel: runtime.defaultModel,
      systemPrompt: '',
      mcpServers: [],
      skills: [],
      disabledTools: [],
      maxStep: null,
      timeoutSeconds: null,
      createdAt: Date.now(),
    };
    // Two first requests at once (on any node) must not both create one: check again under a lock.
    return this.store.transaction(async (tx) => {
      await tx.db.lock(`uhp-default-harness:${principalId}`);
      const created = await tx.defaultHarness(principalId);
      if (created) return created;
      await tx.insertHarness(principalId, harness, true);
      return { harness, principalId, isDefault: true };
    });
  }

  async list(principalId: string): Promise<Harness[]> {
    await this.ensureDefault(principalId);
    return (await this.store.listHarnesses(principalId)).map((stored) => present(stored.harness));
  }

  async get(principalId: string, id: string): Promise<Harness> {
    const stored = await this.store.getHarness(principalId, id);
    if (!stored) throw notFound('harness_not_found', 'harness');
    return present(stored.harness);
  }

  async create(principalId: string, body: HarnessCreate): Promise<Harness> {
    const runtime = this.runtimeOrRefuse(body.base);
    const harness = this.configure(runtime, body, {
      id: newObjectId('chrn'),
      object: 'harness',
      name: body.name ?? `${runtime.base} harness`,
      base: runtime.base,
      createdAt: Date.now(),
    });
    await this.store.insertHarness(principalId, harness);
    return present(harness);
  }

  /** Replaces the mutable configuration; `id`, `base` and `createdAt` never change. */
  async replace(principalId: string, id: string, body: HarnessUpdate): Promise<Harness> {
    const stored = await this.store.getHarness(principalId, id);
    if (!stored) throw notFound('harness_not_found', 'harness');
    if (body.base !== undefined && body.base !== stored.harness.base)
      throw unprocessableInput('The base of a harness cannot be changed; create a new harness.', 'base');
    const runtime = this.runtimeOrRefuse(stored.harness.base);
    const harness = this.configure(
      runtime,
      { ...body, base: stored.harness.base },
      {
        id: stored.harness.id,
        object: 'harness',
        name: body.name ?? stored.harness.name,
        base: stored.harness.base,
        createdAt: stored.harness.createdAt ?? Date.now(),
      },
      stored.harness.mcpServers ?? [],
    );
    await this.store.updateHarness(principalId, harness);
    return present(harness);
  }

  async delete(principalId: string, id: string): Promise<void> {
    if (!(await this.store.deleteHarness(principalId, id))) throw notFound('harness_not_found', 'harness');
  }

  private runtimeOrRefuse(base: string): HarnessRuntime {
    const runtime = this.runtimes.get(base);
    if (!runtime)
      throw new UhpFailure(
        'unsupported_base',
        `This server cannot run the harness base "${base.slice(0, 64)}".`,
        {
          param: 'base',
          detail: { supported: this.supportedBases() },
        },
      );
    return runtime;
  }

  private configure(
    runtime: HarnessRuntime,
    body: HarnessCreate,
    identity: Pick<Harness, 'id' | 'object' | 'name' | 'base' | 'createdAt'>,
    previousMcp: readonly McpServer[] = [],
  ): Harness {
    const defaultModel = body.default_model ?? runtime.defaultModel;
    const known = runtime.models().map((model) => model.id);
    if (!known.includes(defaultModel))
      throw new UhpFailure(
        'model_unavailable',
        `The model "${defaultModel.slice(0, 64)}" is not in this server's catalog for this base.`,
        {
          param: 'default_model',
          detail: { available: known },
        },
      );
    for (const [param, value] of [
      ['max_step', body.max_step],
      ['timeout_seconds', body.timeout_seconds],
    ] as const) {
      if (value !== undefined && value !== null && value < 1)
        throw unprocessableInput(`${param} must be a positive integer or null.`, param);
    }
    const skills = (body.skills ?? []).map((skill, index) => normaliseSkill(skill, `skills[${index}]`));
    const names = new Set<string>();
    for (const skill of skills) {
      if (names.has(skill.name)) throw unprocessableInput('Two skills have the same name.', 'skills');
      names.add(skill.name);
    }
    return {
      ...identity,
      baseLabel: runtime.label,
      defaultModel,
      systemPrompt: body.system_prompt ?? '',
      mcpServers: (body.mcp_servers ?? []).map((server, index) => normaliseMcp(server, index, previousMcp)),
      skills,
      disabledTools: [...new Set(body.disabled_tools ?? [])],
      maxStep: body.max_step ?? null,
      timeoutSeconds: body.timeout_seconds ?? null,
    };
  }
}

function normaliseMcp(server: McpServer, index: number, previous: readonly McpServer[]): McpServer {
  const param = `mcp_servers[${index}]`;
  let url: URL;
  try {
    url = new URL(server.url);
  } catch {
    throw unprocessableInput('An MCP server url must be an absolute http(s) URL.', `${param}.url`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw unprocessableInput('An MCP server url must be an absolute http(s) URL.', `${param}.url`);
  const name = server.name.replace(MCP_NAME_UNSAFE, '_').slice(0, 64);
  if (!name) throw unprocessableInput('An MCP server needs a name.', `${param}.name`);
  const earlier = previous.find((entry) => entry.name === name);
  // A client echoing the redacted placeholder keeps the stored secret instead of overwriting it.
  const auth = server.auth === REDACTED ? earlier?.auth : server.auth;
  const headers = server.headers
    ? Object.fromEntries(
        Object.entries(server.headers).map(([key, value]) => [
          key,
          value === REDACTED
            ? ((earlier?.headers && Object.hasOwn(earlier.headers, key) ? earlier.headers[key] : undefined) ??
              '')
            : value,
        ]),
      )
    : undefined;
  return {
    ...server,
    name,
    url: url.toString(),
    transport: server.transport ?? 'http',
    enabled: server.enabled ?? true,
    ...(headers ? { headers } : {}),
    ...(auth !== undefined ? { auth } : {}),
  };
}

/** The harness as clients see it: MCP credentials and header values are never returned. */
function present(harness: Harness): Harness {
  return {
    ...harness,
    mcpServers: (harness.mcpServers ?? []).map((server) => ({
      ...server,
      ...(server.auth !== undefined ? { auth: REDACTED } : {}),
      ...(server.headers
        ? { headers: Object.fromEntries(Object.keys(server.headers).map((key) => [key, REDACTED])) }
        : {}),
    })),
  };
}
