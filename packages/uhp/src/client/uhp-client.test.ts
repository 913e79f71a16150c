import { describe, expect, it } from 'vitest';
import { UhpClient } from './uhp-client.js';
import { UhpError } from './uhp-error.js';
import { UhpProtocolVersionError } from './uhp-protocol-version-error.js';

/** A server that answers discovery in the wire format but speaks only a version this client does not. */
function serverSpeaking(versions: string[]) {
  const requests: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    requests.push(String(input));
    const body = {
      object: 'uhp.discovery',
      protocol: 'uhp',
      versions,
      default_version: versions[0],
      conformance_class: 'core',
      capabilities: {},
    };
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, requests };
}

describe('UhpClient.connect', () => {
  it('refuses a server of another protocol version with a specific error, and does not retry it', async () => {
    const server = serverSpeaking(['2099-01-01']);
    const slept: number[] = [];
    const client = new UhpClient({
      baseURL: 'http://127.0.0.1:1/uhp',
      fetch: server.fetch,
      sleep: async (ms) => void slept.push(ms),
    });
    const error = await client.connect().catch((caught: unknown) => caught);
    expect(UhpProtocolVersionError.isInstance(error)).toBe(true);
    expect(UhpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      isRetryable: false,
      code: 'unsupported_protocol_version',
      supported: ['2099-01-01'],
    });
    expect((error as Error).message).toContain('2099-01-01');
    expect(server.requests).toHaveLength(1);
    expect(slept).toEqual([]);
  });
});

describe('a server that refuses the protocol version on an ordinary request', () => {
  it('gives the same UhpProtocolVersionError as connect(), with the supported list, and never retries it', async () => {
    const requests: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      requests.push(String(input));
      const body = {
        error: {
          type: 'invalid_request_error',
          code: 'unsupported_protocol_version',
          message: 'This server does not support the requested UHP-Version.',
          param: 'UHP-Version',
          detail: { supported: ['2099-01-01'] },
        },
      };
      return new Response(JSON.stringify(body), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      });
    };
    const slept: number[] = [];
    const client = new UhpClient({
      baseURL: 'http://127.0.0.1:1/uhp',
      apiKey: 'k',
      fetch,
      sleep: async (ms) => void slept.push(ms),
    });
    const error = await client.harnesses.list().catch((caught: unknown) => caught);
    expect(UhpProtocolVersionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ isRetryable: false, supported: ['2099-01-01'] });
    expect(requests).toHaveLength(1);
    expect(slept).toEqual([]);
  });
});
