// What a newcomer sees from the built-in engine on the questions issue 15 opens with: "is this
// urgent?", "is this toxic?" and "how severe is this issue?" on a few everyday states. It prints each
// answer; it measures no accuracy (the labelled sets are bench/lexical-accuracy.mjs's job). A
// second table prints the plain questions of issue 28 with each answer's evidence codes.
//   npx tsc -b && node bench/newcomer-answers.mjs
import { createBuiltinEngine } from '@arbiter/engine';

const engine = createBuiltinEngine();
const STATES = [
  'Production is down! All API calls return 500',
  'Could you update the footer copyright year when you have a moment?',
  'Typo on the about page: "recieve" should be "receive".',
  "Login form accepts ' OR '1'='1 and lets anyone in as admin.",
  'You are an idiot and your product is garbage.',
  'Thanks a lot, the fix works great!',
];
const QUESTIONS = {
  urgent: { type: 'noul', instructions: 'Is this urgent?' },
  toxic: { type: 'noul', instructions: 'Is this toxic?' },
  severity: {
    type: 'score',
    instructions: 'How severe is this issue?',
    criteria: ['trivial', 'minor', 'major', 'critical'],
  },
};
console.log('state'.padEnd(72), 'urgent  toxic  severity (0 trivial … 3 critical)');
for (const state of STATES) {
  const { answers } = await engine.evaluate({ state, questions: QUESTIONS });
  console.log(
    state.padEnd(72),
    answers.urgent.noul.toFixed(3).padEnd(7),
    answers.toxic.noul.toFixed(3).padEnd(6),
    answers.severity.score.toFixed(2),
  );
}

// The plain questions of issue 28 that came back wrong and confident, and the two-text and
// no-evidence cases of docs/benchmarks.md ("Calibration and the laws of issue 28").
const PLAIN = [
  ['The meeting is on Tuesday', { type: 'noul', instructions: 'Is the meeting on Friday?' }],
  ['The meeting is on Tuesday', { type: 'noul', instructions: 'Is the meeting not on Tuesday?' }],
  ['All tests passed, the build is green', { type: 'noul', instructions: 'Is the build failing?' }],
  [
    { sentence1: 'The cat sat on the mat.', sentence2: 'A dog ran in the park.' },
    { type: 'noul', instructions: 'Is sentence2 a paraphrase of sentence1?' },
  ],
  [
    { question: 'What is the capital of France?', answer: 'Bananas are yellow.' },
    { type: 'noul', instructions: 'Does the answer answer the question?' },
  ],
  [
    'the plot is dull and the acting is terrible',
    {
      type: 'noul',
      instructions: 'Is the sentiment positive?',
      criteria: { true: 'positive', false: 'negative' },
    },
  ],
  [
    'The weather is nice',
    { type: 'choice', instructions: 'Which?', criteria: { a: 'about finance', b: 'about sports' } },
  ],
  [
    'Someone exfiltrated our entire customer database to an external server',
    { type: 'score', instructions: 'How severe is this?', criteria: ['low', 'medium', 'high', 'critical'] },
  ],
];
console.log('\nstate | question | answer | evidence');
for (const [state, question] of PLAIN) {
  const { answers } = await engine.evaluate({ state, questions: { q: question } });
  const answer = answers.q;
  const shown =
    answer.type === 'noul'
      ? answer.noul.toFixed(3)
      : Object.values(answer.probabilities)
          .map((p) => p.toFixed(2))
          .join(' / ');
  console.log(
    `${JSON.stringify(state)} | ${question.instructions} | ${shown} | ${answer.arbiter?.abstained ? 'abstained ' : ''}${(answer.arbiter?.evidence ?? []).join(' ')}`,
  );
}
