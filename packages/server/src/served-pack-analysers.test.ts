import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toolGatingConfigSchema } from '@arbiter/harness-server';
import { TOOL_GATE_PACK } from '@arbiter/tool-gate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedPackAnalysers } from './served-pack-analysers.js';

/** A chat-completions server whose every first token is the label `A` (or `no` for yes/no). */
let model: Server;
let baseURL = '';
let calls = 0;

beforeAll(async () => {
  model = createServer(async (request, response) => {
    for await (const _ of request);
    calls += 1;
    const body = (token: string) => ({
      id: 'x',
      object: 'chat.completion',
      created: 1,
      model: 'gate-model',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: token },
          logprobs: {
            content: [
              {
                token,
                logprob: -0.01,
                bytes: [...Buffer.from(token)],
                top_logprobs: [{ token, logprob: -0.01, bytes: [...Buffer.from(token)] }],
              },
            ],
          },
          finish_reason: 'length',
        },
      ],
    });
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body('A')));
  });
  model.listen(0, '127.0.0.1');
  await once(model, 'listening');
  baseURL = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  model.closeAllConnections();
  await new Promise((resolve) => model.close(resolve));
});

const request = {
  state: {
    tool: 'Bash',
    arguments: { command: 'frobctl status' },
    grant: ['Bash'],
    task: 'Check the status.',
  },
  questions: TOOL_GATE_PACK.definition.questions,
  pack: {
    name: TOOL_GATE_PACK.definition.name,
    version: TOOL_GATE_PACK.definition.version,
    sha256: TOOL_GATE_PACK.sha256,
  },
};

describe('the served tool-gate analysis and toolGating.secondOpinion', () => {
  it('asks the configured model about a call the analysis does not understand', async () => {
    const config = toolGatingConfigSchema.parse({ secondOpinion: { baseURL, model: 'gate-model' } });
    const [analyser] = servedPackAnalysers({ toolGating: config });
    const before = calls;
    const { answers } = await analyser!.evaluate(request);
    expect(calls).toBeGreaterThan(before);
    expect(answers.disposition?.arbiter?.engine).toBe('builtin/tool-gate+gate-model');
  });

  it('without one, the analysis alone answers', async () => {
    const [analyser] = servedPackAnalysers({});
    const before = calls;
    const { answers } = await analyser!.evaluate(request);
    expect(calls).toBe(before);
    expect(answers.disposition?.arbiter?.engine).toBe('builtin/tool-gate');
  });

  it('the setting is checked: an address that is not http(s) and a key variable that is not a name are refused', () => {
    expect(
      toolGatingConfigSchema.safeParse({ secondOpinion: { baseURL: 'ftp://x/v1', model: 'm' } }).success,
    ).toBe(false);
    expect(
      toolGatingConfigSchema.safeParse({ secondOpinion: { baseURL, model: 'm', apiKeyEnv: 'not a name' } })
        .success,
    ).toBe(false);
  });
});
