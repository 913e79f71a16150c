import { decideOutcome, type Grade, gradeCriterion, loadRubric, rubricFeedback } from '@arbiter/rubric';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ScriptedChatServer,
  startScriptedChatServer,
} from '../../../../engine/test/support/scripted-chat-server.js';
import { FEEDBACK_API_KEY_ENV, resolveFeedbackModel } from './feedback-model-spec.js';
import { modelFeedback } from './model-feedback.js';

const rubric = loadRubric({
  name: 'essay',
  version: '2.0.0',
  criteria: [
    {
      id: 'argument',
      type: 'score',
      question: 'How well is the claim argued?',
      levels: [
        'No claim.',
        'A claim without evidence.',
        'A claim with evidence.',
        'A claim with evidence and counterarguments.',
      ],
      pass_score: 2,
      required: true,
    },
    {
      id: 'sources',
      type: 'noul',
      statement: 'Every quotation names its source.',
      true: 'each quotation is attributed',
      pass_probability: 0.8,
    },
    { id: 'length', type: 'noul', statement: 'The essay stays under 800 words.', pass_probability: 0.5 },
  ],
});

function criterion(id: string) {
  const found = rubric.definition.criteria.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no criterion ${id}`);
  return found;
}

const criteria = [
  gradeCriterion(criterion('argument'), {
    type: 'score',
    score: 1.2,
    confidence: 0.6,
    probabilities: { '0': 0.05, '1': 0.7, '2': 0.2, '3': 0.05 },
    legend: {},
  }),
  gradeCriterion(criterion('sources'), { type: 'noul', noul: 0.4 }),
  gradeCriterion(criterion('length'), { type: 'noul', noul: 0.95 }),
];
const grade: Grade = {
  rubric: { name: 'essay', version: '2.0.0', sha256: rubric.sha256 },
  ...decideOutcome(rubric.definition.outcome, criteria),
  criteria,
  model: 'fixed-1.0.0',
  usage: null,
  latencyMs: 1,
};

describe('rubricFeedback', () => {
  it('lists each failing criterion with its figure, the level reached and the level needed', () => {
    expect(rubricFeedback(rubric, grade)).toEqual({
      source: 'rubric',
      text: [
        'The work does not yet meet the rubric "essay". Revise it so that:',
        '',
        '- argument (required): How well is the claim argued? [score 1.20 of 0–3, needs 2]',
        '  Currently: "A claim without evidence."',
        '  Needed: "A claim with evidence."',
        '',
        '- sources: Every quotation names its source. [P(true) 0.40, needs 0.80]',
        '  Needed: "each quotation is attributed"',
      ].join('\n'),
    });
  });
});

/** A stand-in for a hosted model provider: the OpenAI chat-completions wire format on loopback. */
describe('modelFeedback through an OpenAI-compatible server', () => {
  let failing = false;
  let server: ScriptedChatServer;
  let baseURL = '';

  beforeAll(async () => {
    server = await startScriptedChatServer(() =>
      failing
        ? { status: 500, error: { message: 'model overloaded', type: 'server_error' } }
        : {
            text: 'argument: add the survey figures to back the claim.',
            usage: { prompt_tokens: 120, completion_tokens: 11 },
          },
    );
    baseURL = server.baseURL;
  });

  afterAll(() => server.close());

  it('asks the model about the failing criteria only and returns its text', async () => {
    const model = resolveFeedbackModel(`openai-compatible:${baseURL}#coder`, {
      [FEEDBACK_API_KEY_ENV]: 'feedback-key',
    });
    const token = `ghp_${'a1'.repeat(18)}`;
    const feedback = await modelFeedback({
      model,
      rubric,
      grade,
      work: `My essay text.\nDeploy with ${token}`,
    });
    expect(feedback).toEqual({
      source: 'model',
      model: `openai-compatible:${baseURL}#coder`,
      text: 'argument: add the survey figures to back the claim.',
    });
    const request = server.requests.at(-1);
    expect(request?.authorization).toBe('Bearer feedback-key');
    expect(request?.body.model).toBe('coder');
    const messages: { role: string; content: string }[] = request?.body.messages ?? [];
    const prompt = messages.find((message) => message.role === 'user')?.content ?? '';
    expect(prompt).toContain('"id":"argument"');
    expect(prompt).toContain('"needed":"A claim with evidence."');
    expect(prompt).toContain('"id":"sources"');
    expect(prompt).not.toContain('"id":"length"');
    expect(prompt).toContain('<work>\nMy essay text.\nDeploy with [REDACTED:github-token]\n</work>');
    expect(prompt).not.toContain(token);
  });

  it('falls back to the rubric feedback and says why when the model fails', async () => {
    failing = true;
    const model = resolveFeedbackModel(`openai-compatible:${baseURL}#coder`, {});
    const feedback = await modelFeedback({ model, rubric, grade, work: 'My essay text.', maxRetries: 0 });
    failing = false;
    expect(feedback.source).toBe('rubric');
    expect(feedback.text).toBe(rubricFeedback(rubric, grade).text);
    expect(feedback.modelError).toMatch(/^openai-compatible:.*#coder: .*model overloaded/);
  });

  it('rejects malformed specs with the accepted forms', () => {
    for (const spec of [
      'gpt-5',
      'openai:',
      'openai-compatible:not a url#m',
      `openai-compatible:${baseURL}`,
    ]) {
      expect(() => resolveFeedbackModel(spec, {})).toThrow(
        /^invalid feedback model ".*": use openai-compatible:<baseURL>#<model>, openai:<model>/,
      );
    }
  });
});
