import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderModel } from './provider-model.js';
import { providerModelListSchema } from './provider-model-config.js';

let server: http.Server;
let baseURL: string;
let probes = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    probes++;
    // Any HTTP answer means reachable, even a refusal: the probe never sends the key.
    res.writeHead(req.headers.authorization ? 500 : 401).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const config = (overrides: Record<string, unknown> = {}) =>
  providerModelListSchema.parse([
    {
      id: 'local',
      provider: 'openai-compatible',
      baseURL,
      upstreamModel: 'llama',
      apiKeyEnv: 'LOCAL_KEY',
      ...overrides,
    },
  ])[0]!;

describe('ProviderModel availability', () => {
  it('needs the key variable to be set', () => {
    expect(new ProviderModel(config(), {}, {}).available()).toBe(false);
    expect(new ProviderModel(config(), {}, { LOCAL_KEY: '' }).available()).toBe(false);
    expect(new ProviderModel(config({ apiKeyEnv: undefined }), {}, {}).hasKey()).toBe(true);
  });

  it('probes reachability once per TTL and marks an unreachable server unavailable', async () => {
    const reachable = new ProviderModel(config(), { ttlMs: 60_000 }, { LOCAL_KEY: 'k' });
    const before = probes;
    expect(await reachable.probe()).toBe(true);
    expect(reachable.available()).toBe(true);
    reachable.available();
    expect(probes - before).toBe(1);

    const gone = new ProviderModel(
      config({ baseURL: 'http://127.0.0.1:9/v1' }),
      { timeoutMs: 500 },
      { LOCAL_KEY: 'k' },
    );
    expect(await gone.probe()).toBe(false);
    expect(gone.available()).toBe(false);
  });

  it('rejects a configuration that cannot work, naming the field', () => {
    const result = providerModelListSchema.safeParse([
      { id: 'a', provider: 'openai-compatible', upstreamModel: 'x' },
      { id: 'a', provider: 'openai', upstreamModel: 'y', apiKeyEnv: 'not a name' },
    ]);
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join('.')).sort();
    expect(paths).toEqual(['0.baseURL', '1.apiKeyEnv', '1.id']);
  });
});
