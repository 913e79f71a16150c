// What a newcomer sees from the built-in engine on the questions issue 15 opens with: "is this
// urgent?", "is this toxic?" and "how severe is this issue?" on a few everyday states. It prints each
// answer; it measures no accuracy (the labelled sets are bench/lexical-accuracy.mjs's job).
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
