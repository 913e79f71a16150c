import { toolGatingConfigSchema } from '@arbiter/harness-server';
import { TOOL_GATE_PACK } from '@arbiter/tool-gate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ScriptedChatServer,
  startScriptedChatServer,
} from '../../engine/test/support/scripted-chat-server.js';
import { servedPackAnalysers } from './served-pack-analysers.js';

/** A chat-completions server whose every first token is the label `A` (or `no` for yes/no). */
let model: ScriptedChatServer;
let baseURL = '';
const calls = () => model.requests.length;

beforeAll(async () => {
  model = await startScriptedChatServer(() => ({ top: [['A', Math.exp(-0.01)]] }));
  baseURL = model.baseURL;
});

afterAll(() => model.close());

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
    const before = calls();
    const { answers } = await analyser!.evaluate(request);
    expect(calls()).toBeGreaterThan(before);
    expect(answers.disposition?.arbiter?.engine).toBe('builtin/tool-gate+gate-model');
  });

  it('without one, the analysis alone answers', async () => {
    const [analyser] = servedPackAnalysers({});
    const before = calls();
    const { answers } = await analyser!.evaluate(request);
    expect(calls()).toBe(before);
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
