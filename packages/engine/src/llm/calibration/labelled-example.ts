import { type Question, questionSchema, stateSchema } from '@arbiter/decision';
import { z } from 'zod';

/**
 * One line of a calibration data file: `{"state": …, "question": {…}, "expected": …}` where `expected`
 * is `true`/`false` for Noul, an option name for Choice, a level index for Score.
 */
export const labelledExampleSchema = z
  .strictObject({
    state: stateSchema,
    question: questionSchema,
    expected: z.union([z.boolean(), z.string(), z.number().int().min(0)]),
  })
  .superRefine((example, context) => {
    const issue = expectedIndexIssue(example.question, example.expected);
    if (issue) context.addIssue({ code: 'custom', path: ['expected'], message: issue });
  });
export type LabelledExample = z.infer<typeof labelledExampleSchema>;

/** Position of the expected outcome in the engine's outcome order (Noul: true first). */
export function expectedOutcomeIndex(question: Question, expected: LabelledExample['expected']): number {
  switch (question.type) {
    case 'noul':
      return expected === true ? 0 : 1;
    case 'choice':
      return Object.keys(question.criteria).indexOf(String(expected));
    case 'score':
      return Number(expected);
  }
}

function expectedIndexIssue(question: Question, expected: LabelledExample['expected']): string | undefined {
  switch (question.type) {
    case 'noul':
      return typeof expected === 'boolean' ? undefined : 'a Noul example expects true or false';
    case 'choice':
      return typeof expected === 'string' && Object.hasOwn(question.criteria, expected)
        ? undefined
        : `a Choice example expects one of its option names (${Object.keys(question.criteria).join(', ')})`;
    case 'score':
      return typeof expected === 'number' && expected < question.criteria.length
        ? undefined
        : `a Score example expects a level index from 0 to ${question.criteria.length - 1}`;
  }
}

/** Parses JSON Lines; blank lines are skipped; every error names its line. */
export function parseLabelledExamples(text: string): LabelledExample[] {
  const examples: LabelledExample[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new SyntaxError(`line ${index + 1}: not JSON (${(error as Error).message})`);
    }
    const parsed = labelledExampleSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new SyntaxError(`line ${index + 1}: ${issue.path.join('.') || 'example'}: ${issue.message}`);
    }
    examples.push(parsed.data);
  });
  if (examples.length === 0) throw new SyntaxError('the calibration data has no examples');
  return examples;
}
