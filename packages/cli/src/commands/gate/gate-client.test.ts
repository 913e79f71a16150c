import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOOL_GATE_PACK } from '@arbiter/tool-gate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateClient, SECOND_OPINION_MODEL, SECOND_OPINION_URL } from './gate-client.js';

/** A chat-completions server that answers every prompt with the first label it offers, or "yes". */
let server: Server;
let baseURL = '';
const paths: string[] = [];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    paths.push(request.url ?? '');
    const text = Buffer.concat(chunks).toString('utf8');
    const token = /A:ask/.test(text) ? 'A' : (/([A-Z]):ask/.exec(text)?.[1] ?? 'no');
    const top = [{ token, logprob: Math.log(0.99), bytes: [...Buffer.from(token)] }];
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 'x',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: token },
            logprobs: { content: [{ ...top[0], top_logprobs: top }] },
            finish_reason: 'length',
          },
        ],
      }),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const call = (command: string) => ({
  state: { tool: 'Bash', arguments: { command }, grant: ['Bash'], task: 'Check the status.' },
  questions: TOOL_GATE_PACK.definition.questions,
  pack: {
    name: TOOL_GATE_PACK.definition.name,
    version: TOOL_GATE_PACK.definition.version,
    sha256: TOOL_GATE_PACK.sha256,
  },
});

describe('the in-process gate client and the second opinion named by the environment', () => {
  it('asks the named model about a call the analysis does not understand, and names it in the answers', async () => {
    const env = { [SECOND_OPINION_URL]: baseURL, [SECOND_OPINION_MODEL]: 'scripted' };
    const client = await createGateClient({ thresholds: TOOL_GATE_PACK.definition.thresholds, env });
    const before = paths.length;
    const result = await client.decide(call('frobctl status'));
    expect(paths.length - before).toBeGreaterThan(0);
    expect(result.skipped).toBe(false);
    if (result.skipped) return;
    expect(result.answers.disposition?.arbiter?.engine).toBe('builtin/tool-gate+scripted');
  });

  it('without the environment nothing is asked; half of it is an error that names the missing variable', async () => {
    const client = await createGateClient({ thresholds: TOOL_GATE_PACK.definition.thresholds, env: {} });
    const before = paths.length;
    await client.decide(call('frobctl status'));
    expect(paths.length).toBe(before);
    await expect(
      createGateClient({
        thresholds: TOOL_GATE_PACK.definition.thresholds,
        env: { [SECOND_OPINION_URL]: baseURL },
      }),
    ).rejects.toThrow(SECOND_OPINION_MODEL);
  });
});
