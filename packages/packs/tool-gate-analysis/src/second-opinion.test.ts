import { createOpenAICompatibleEngine } from '@arbiter/engine';
import { TOOL_GATE_PACK } from '@arbiter/tool-gate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ScriptedChatServer,
  type ScriptedReply,
  startScriptedChatServer,
} from '../../../engine/test/support/scripted-chat-server.js';
import { createToolGateAnalyser } from './tool-gate-analyser.js';

/**
 * The model's second opinion against a scripted OpenAI-compatible server speaking the real chat
 * completions wire format (first-token logprobs), through the real `openai-compatible` engine.
 * The script answers by what each prompt asks: the six questions' instructions are recognisable.
 */
interface Script {
  /** The disposition the model picks. */
  disposition: 'allow' | 'deny' | 'ask';
  /** P(yes) for the destructive question. */
  destructive: number;
  /** Whether the server fails every request. */
  fail?: boolean;
}

let script: Script = { disposition: 'allow', destructive: 0.05 };
let server: ScriptedChatServer;
let baseURL = '';
const requestCount = () => server.requests.length;

/** The reply with `token` at `probability` and `other` as the runner-up. */
function completion(token: string, probability: number, other: string): ScriptedReply {
  return {
    top: [
      [token, probability],
      [other, 1 - probability],
    ],
    usage: { prompt_tokens: 200, completion_tokens: 1 },
  };
}

beforeAll(async () => {
  server = await startScriptedChatServer(({ prompt: text }) => {
    if (script.fail === true) return { status: 500, json: { error: { message: 'scripted failure' } } };
    if (text.includes('All things considered')) {
      const letter = new RegExp(`([A-Z]):\\s*${script.disposition}\\b`).exec(text)?.[1];
      if (letter === undefined) throw new Error(`no label for ${script.disposition} in the prompt`);
      return completion(letter, 0.99, letter === 'A' ? 'B' : 'A');
    }
    if (text.includes('destroy or irreversibly change')) return completion('yes', script.destructive, 'no');
    if (text.includes('data exfiltration')) return completion('no', 0.95, 'yes');
    return completion('yes', 0.95, 'no');
  });
  baseURL = server.baseURL;
});

afterAll(() => server.close());

const thresholds = TOOL_GATE_PACK.definition.thresholds;
const questions = TOOL_GATE_PACK.definition.questions;
const pack = {
  name: TOOL_GATE_PACK.definition.name,
  version: TOOL_GATE_PACK.definition.version,
  sha256: TOOL_GATE_PACK.sha256,
};

async function judge(command: string) {
  const engine = createOpenAICompatibleEngine({
    kind: 'openai-compatible',
    baseURL,
    model: 'scripted-model',
    timeoutMs: 5_000,
    maxRetries: 0,
  });
  const analyser = createToolGateAnalyser(thresholds, { secondOpinion: { engine, name: 'scripted-model' } });
  const state = {
    tool: 'Bash',
    arguments: { command },
    grant: ['Bash'],
    task: 'Check the service status.',
    cwd: '/home/dev/project',
  };
  const before = requestCount();
  const { answers } = await analyser.evaluate({ state, questions, pack });
  const disposition = answers.disposition!;
  if (disposition.type !== 'choice') throw new Error('disposition is not a choice');
  return {
    choice: disposition.choice,
    engine: disposition.arbiter?.engine,
    evidence: disposition.arbiter?.evidence ?? [],
    asked: requestCount() - before,
  };
}

describe("a model's second opinion on calls the analysis does not understand", () => {
  it('an unknown program is put to the model, and its allow (with low risks) decides', async () => {
    script = { disposition: 'allow', destructive: 0.05 };
    const verdict = await judge('frobctl status');
    expect(verdict.asked).toBe(6);
    expect(verdict.choice).toBe('allow');
    expect(verdict.engine).toBe('builtin/tool-gate+scripted-model');
    expect(verdict.evidence).toContain('second-opinion:scripted-model:allow');
  });

  it("the model's ask is ASK, and a risk it finds at the deny threshold is DENY", async () => {
    script = { disposition: 'ask', destructive: 0.05 };
    expect((await judge('frobctl status')).choice).toBe('ask');
    script = { disposition: 'allow', destructive: 0.9 };
    expect((await judge('frobctl status')).choice).toBe('deny');
  });

  it('what the analysis is certain of decides first: the model is not asked', async () => {
    script = { disposition: 'allow', destructive: 0.01 };
    const denied = await judge('rm -rf ~');
    expect(denied).toMatchObject({ choice: 'deny', asked: 0, engine: 'builtin/tool-gate' });
    const understood = await judge('git status');
    expect(understood).toMatchObject({ choice: 'allow', asked: 0, engine: 'builtin/tool-gate' });
  });

  it('a model that fails leaves the analysis ASK, and the record says so', async () => {
    script = { disposition: 'allow', destructive: 0.05, fail: true };
    const verdict = await judge('frobctl status');
    expect(verdict.choice).toBe('ask');
    expect(verdict.evidence.some((code) => code.startsWith('second-opinion.failed:scripted-model'))).toBe(
      true,
    );
  });
});
