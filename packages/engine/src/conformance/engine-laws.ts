import type { Answer, EvaluateOptions, Question } from '@arbiter/decision';

/**
 * The laws an engine's answers can keep, as one table of metamorphic cases: each transforms a
 * request in a way the law says cannot matter (or derives one answer from another) and compares
 * the answers. `engine-conformance.test.ts` runs the table against every engine kind, as Hono runs
 * one router case table against every router; docs/engines.md states which laws each kind keeps,
 * and a test checks the page against `LAWS_KEPT`.
 */
export interface EngineLaw {
  readonly id: string;
  readonly statement: string;
  /** A description of the first violation found, or undefined when the law held. */
  check(ask: Ask): Promise<string | undefined>;
}

export type Ask = (request: Pick<EvaluateOptions, 'state' | 'questions'>) => Promise<Record<string, Answer>>;

const STATE = 'Production is down! All API calls return 500 and customers ask for refunds of this month.';
const URGENT: Question = { type: 'noul', instructions: 'Does this need action today?' };
const TEAM: Question = {
  type: 'choice',
  instructions: 'Which team should handle this?',
  criteria: { billing: 'payments and refunds', technical: 'bugs and outages', sales: 'new contracts' },
};
const SEVERITY: Question = {
  type: 'score',
  instructions: 'How severe is the issue?',
  criteria: ['Cosmetic', 'Workaround exists', 'Blocking; no workaround'],
};
const THREE = { urgent: URGENT, team: TEAM, severity: SEVERITY };

/** Exact up to floating-point summation order. */
const TOLERANCE = 1e-9;
const close = (a: number, b: number, tolerance = TOLERANCE) => Math.abs(a - b) <= tolerance;

function distributionOf(answer: Answer): Record<string, number> {
  return answer.type === 'noul' ? { true: answer.noul, false: 1 - answer.noul } : answer.probabilities;
}

/** The first difference between two answers' distributions, or undefined. */
function difference(label: string, a: Answer | undefined, b: Answer | undefined): string | undefined {
  if (!a || !b) return `${label}: an answer is missing`;
  const left = distributionOf(a);
  const right = distributionOf(b);
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
    if (!close(left[key] ?? Number.NaN, right[key] ?? Number.NaN)) {
      return `${label}: P(${key}) ${left[key]} against ${right[key]}`;
    }
  }
  return undefined;
}

function choiceWith(criteria: Extract<Question, { type: 'choice' }>['criteria']): Question {
  return { type: 'choice', instructions: TEAM.instructions, criteria };
}

export const ENGINE_LAWS: readonly EngineLaw[] = [
  {
    id: 'sums-to-one',
    statement: "a question's probabilities lie in [0, 1] and sum to one",
    async check(ask) {
      const answers = await ask({ state: STATE, questions: THREE });
      for (const [id, answer] of Object.entries(answers)) {
        const values = Object.values(distributionOf(answer));
        if (values.some((p) => !(p >= 0 && p <= 1))) return `${id}: a probability outside [0, 1]`;
        const total = values.reduce((sum, p) => sum + p, 0);
        if (!close(total, 1)) return `${id}: probabilities sum to ${total}`;
      }
      return undefined;
    },
  },
  {
    id: 'typed-answers',
    statement: "each answer has its question's type, outcomes and pick (a Score is its expected level)",
    async check(ask) {
      const answers = await ask({ state: STATE, questions: THREE });
      for (const [id, question] of Object.entries(THREE)) {
        const answer = answers[id];
        if (!answer || answer.type !== question.type) return `${id}: no answer of type ${question.type}`;
        if (answer.type === 'noul') continue;
        const outcomes =
          question.type === 'choice'
            ? Object.keys(question.criteria)
            : question.type === 'score'
              ? question.criteria.map((_, index) => String(index))
              : [];
        const keys = Object.keys(answer.probabilities);
        if (keys.length !== outcomes.length || !outcomes.every((key) => keys.includes(key)))
          return `${id}: outcomes ${keys.join(',')} against ${outcomes.join(',')}`;
        if (!(answer.confidence >= 0 && answer.confidence <= 1))
          return `${id}: confidence ${answer.confidence}`;
        if (answer.type === 'choice') {
          const top = Math.max(...Object.values(answer.probabilities));
          if (answer.probabilities[answer.choice] !== top)
            return `${id}: the pick is not the most probable option`;
        } else {
          const expected = keys.reduce((sum, key) => sum + Number(key) * answer.probabilities[key]!, 0);
          if (!close(answer.score, expected))
            return `${id}: score ${answer.score}, expected level ${expected}`;
        }
      }
      return undefined;
    },
  },
  {
    id: 'deterministic',
    statement: 'the same request gives the same answers',
    async check(ask) {
      const first = await ask({ state: STATE, questions: THREE });
      const second = await ask({ state: STATE, questions: THREE });
      for (const id of Object.keys(THREE)) {
        const found = difference(id, first[id], second[id]);
        if (found) return found;
      }
      return undefined;
    },
  },
  {
    id: 'question-independence',
    statement: 'an answer does not depend on which other questions are asked with it',
    async check(ask) {
      const together = await ask({ state: STATE, questions: THREE });
      for (const [id, question] of Object.entries(THREE)) {
        const alone = await ask({ state: STATE, questions: { [id]: question } });
        const found = difference(id, together[id], alone[id]);
        if (found) return found;
      }
      return undefined;
    },
  },
  {
    id: 'question-ids-are-keys',
    statement: "a question's id is not evidence: renaming it keeps the answer",
    async check(ask) {
      const named = await ask({ state: STATE, questions: THREE });
      const renamed = await ask({
        state: STATE,
        questions: { q_1: URGENT, zz: TEAM, is_billing_urgent: SEVERITY },
      });
      return (
        difference('urgent', named.urgent, renamed.q_1) ??
        difference('team', named.team, renamed.zz) ??
        difference('severity', named.severity, renamed.is_billing_urgent)
      );
    },
  },
  {
    id: 'option-order',
    statement: "reordering a Choice's options does not change their probabilities",
    async check(ask) {
      const given = await ask({ state: STATE, questions: { team: TEAM } });
      const entries = Object.entries((TEAM as Extract<Question, { type: 'choice' }>).criteria).reverse();
      const reversed = await ask({
        state: STATE,
        questions: { team: choiceWith(Object.fromEntries(entries)) },
      });
      return difference('team', given.team, reversed.team);
    },
  },
  {
    id: 'choice-set',
    statement: "removing an option keeps the others' proportions (Luce's choice axiom)",
    async check(ask) {
      const all = (await ask({ state: STATE, questions: { team: TEAM } })).team;
      const fewer = (
        await ask({
          state: STATE,
          questions: { team: choiceWith({ billing: 'payments and refunds', technical: 'bugs and outages' }) },
        })
      ).team;
      if (all?.type !== 'choice' || fewer?.type !== 'choice') return 'team: no Choice answer';
      const before = all.probabilities.billing! / all.probabilities.technical!;
      const after = fewer.probabilities.billing! / fewer.probabilities.technical!;
      return close(before, after, 1e-6)
        ? undefined
        : `billing:technical ${before} with sales, ${after} without`;
    },
  },
  {
    id: 'option-ids-are-names',
    statement: 'with descriptions present, renaming option ids keeps the answer',
    async check(ask) {
      const named = (await ask({ state: STATE, questions: { team: TEAM } })).team;
      const renamed = (
        await ask({
          state: STATE,
          questions: {
            team: choiceWith({ a: 'payments and refunds', b: 'bugs and outages', c: 'new contracts' }),
          },
        })
      ).team;
      if (named?.type !== 'choice' || renamed?.type !== 'choice') return 'team: no Choice answer';
      const pairs = [
        ['billing', 'a'],
        ['technical', 'b'],
        ['sales', 'c'],
      ] as const;
      for (const [id, other] of pairs) {
        if (!close(named.probabilities[id]!, renamed.probabilities[other]!))
          return `${id} ${named.probabilities[id]} renamed ${other} ${renamed.probabilities[other]}`;
      }
      return undefined;
    },
  },
  {
    id: 'negation',
    statement: 'a statement and its explicit negation sum to one',
    async check(ask) {
      const answers = await ask({
        state: STATE,
        questions: {
          yes: { type: 'noul', instructions: 'The service is down.' },
          no: { type: 'noul', instructions: 'The service is not down.' },
        },
      });
      const { yes, no } = answers;
      if (yes?.type !== 'noul' || no?.type !== 'noul') return 'no Noul answers';
      return close(yes.noul + no.noul, 1) ? undefined : `P(X) + P(not X) = ${yes.noul + no.noul}`;
    },
  },
  {
    id: 'and-or',
    statement:
      'P(A) + P(B) = P(A or B) + P(A and B) (inclusion-exclusion), and "not (A and B)" is one minus "A and B"',
    async check(ask) {
      const a = 'the service is down';
      const b = 'customers want refunds';
      const answers = await ask({
        state: STATE,
        questions: {
          a: { type: 'noul', instructions: `${a}.` },
          b: { type: 'noul', instructions: `${b}.` },
          and: { type: 'noul', instructions: `${a} and ${b}.` },
          or: { type: 'noul', instructions: `${a} or ${b}.` },
          nand: { type: 'noul', instructions: `not (${a} and ${b})` },
        },
      });
      const p = (id: string) => {
        const answer = answers[id];
        return answer?.type === 'noul' ? answer.noul : Number.NaN;
      };
      if (!close(p('a') + p('b'), p('or') + p('and'), 1e-6))
        return `P(A) + P(B) = ${p('a') + p('b')}, P(A or B) + P(A and B) = ${p('or') + p('and')}`;
      if (!close(p('nand'), 1 - p('and'))) return `P(not (A and B)) ${p('nand')}, P(A and B) ${p('and')}`;
      return undefined;
    },
  },
  {
    id: 'reverse-levels',
    statement: "a Score's levels given in reverse order give the mirrored distribution",
    async check(ask) {
      const levels = ['Minor: cosmetic', 'Major: a workaround exists', 'Critical: blocking, no workaround'];
      const answers = await ask({
        state: STATE,
        questions: {
          forward: { type: 'score', instructions: SEVERITY.instructions, criteria: levels },
          backward: { type: 'score', instructions: SEVERITY.instructions, criteria: [...levels].reverse() },
        },
      });
      const { forward, backward } = answers;
      if (forward?.type !== 'score' || backward?.type !== 'score') return 'no Score answers';
      for (let level = 0; level < levels.length; level++) {
        const mirrored = backward.probabilities[String(levels.length - 1 - level)]!;
        if (!close(forward.probabilities[String(level)]!, mirrored))
          return `level ${level}: ${forward.probabilities[String(level)]} forward, ${mirrored} reversed`;
      }
      return undefined;
    },
  },
  {
    id: 'cumulative-levels',
    statement:
      '"is it level k or higher?" is the sum of the Score\'s levels from k up, so it never rises with k',
    async check(ask) {
      const levels = ['cosmetic', 'minor', 'moderate', 'major', 'critical'];
      const questions: Record<string, Question> = {
        score: { type: 'score', instructions: SEVERITY.instructions, criteria: levels },
      };
      for (const level of levels)
        questions[level] = { type: 'noul', instructions: `Is the severity ${level} or higher?` };
      const answers = await ask({ state: STATE, questions });
      const score = answers.score;
      if (score?.type !== 'score') return 'no Score answer';
      let above = 0;
      for (let k = levels.length - 1; k >= 0; k--) {
        above += score.probabilities[String(k)]!;
        const cumulative = answers[levels[k]!];
        if (cumulative?.type !== 'noul') return `${levels[k]}: no Noul answer`;
        if (!close(cumulative.noul, above, 1e-6))
          return `${levels[k]} or higher ${cumulative.noul}, the Score's levels from it up ${above}`;
      }
      return undefined;
    },
  },
  {
    id: 'noul-as-score',
    statement:
      'a Noul and the same question as a two-level Score of no and yes agree, mirrored when yes comes first',
    async check(ask) {
      const answers = await ask({
        state: STATE,
        questions: {
          noul: URGENT,
          forward: { type: 'score', instructions: URGENT.instructions, criteria: ['No', 'Yes'] },
          backward: { type: 'score', instructions: URGENT.instructions, criteria: ['Yes', 'No'] },
        },
      });
      const { noul, forward, backward } = answers;
      if (noul?.type !== 'noul' || forward?.type !== 'score' || backward?.type !== 'score')
        return 'answers missing';
      if (!close(forward.probabilities['1']!, noul.noul))
        return `Score P(yes) ${forward.probabilities['1']}, Noul ${noul.noul}`;
      if (!close(backward.probabilities['0']!, noul.noul))
        return `yes-first Score P(yes) ${backward.probabilities['0']}, Noul ${noul.noul}`;
      return undefined;
    },
  },
];

/**
 * The laws each engine kind keeps, checked by the conformance suite against every kind and stated
 * in docs/engines.md (a test compares the page with this table). The layer every catalog engine
 * answers through (`withCoherence`) gives every kind the first six.
 */
export const LAWS_KEPT: Readonly<Record<string, readonly string[]>> = {
  builtin: ENGINE_LAWS.map((law) => law.id),
  'openai-compatible': [
    'sums-to-one',
    'typed-answers',
    'deterministic',
    'question-independence',
    'question-ids-are-keys',
    'option-order',
  ],
  nli: [
    'sums-to-one',
    'typed-answers',
    'deterministic',
    'question-independence',
    'question-ids-are-keys',
    'option-order',
    'choice-set',
    'option-ids-are-names',
  ],
  'llama-cpp': [
    'sums-to-one',
    'typed-answers',
    'deterministic',
    'question-independence',
    'question-ids-are-keys',
    'option-order',
  ],
};

/** The Markdown table of `LAWS_KEPT` that docs/engines.md holds between its law markers. */
export function lawsTable(): string {
  const kinds = Object.keys(LAWS_KEPT);
  const rows = ENGINE_LAWS.map(
    (law) =>
      `| \`${law.id}\`: ${law.statement} | ${kinds.map((kind) => (LAWS_KEPT[kind]!.includes(law.id) ? 'kept' : '—')).join(' | ')} |`,
  );
  return [
    `| law | ${kinds.map((kind) => `\`${kind}\``).join(' | ')} |`,
    `| --- |${kinds.map(() => ' --- |').join('')}`,
    ...rows,
  ].join('\n');
}
