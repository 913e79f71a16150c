import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRubricText, readRubricFile } from '../src/index.js';

const DOCS = resolve(import.meta.dirname, '../../../../docs');
const EXAMPLES = ['code-review.yaml', 'writing.yaml'];

describe('the example rubrics of docs/grading.md', () => {
  it('are valid, and the copies in the guide are the files themselves', async () => {
    const guide = await readFile(resolve(DOCS, 'grading.md'), 'utf8');
    const embedded = [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) =>
      parseRubricText(match[1] ?? '', 'grading.md'),
    );
    expect(embedded).toHaveLength(EXAMPLES.length);
    for (const [index, name] of EXAMPLES.entries()) {
      const rubric = await readRubricFile(resolve(DOCS, 'examples/rubrics', name));
      expect(rubric.definition.criteria.length).toBeGreaterThanOrEqual(4);
      expect(embedded[index]?.sha256).toBe(rubric.sha256);
    }
  });

  it('use both criterion types and spell out their outcome rules', async () => {
    for (const name of EXAMPLES) {
      const text = await readFile(resolve(DOCS, 'examples/rubrics', name), 'utf8');
      const rubric = parseRubricText(text, name);
      expect(new Set(rubric.definition.criteria.map((criterion) => criterion.type))).toEqual(
        new Set(['score', 'noul']),
      );
      expect(text).toMatch(/outcome:\n {2}min_confidence: .*\n {2}satisfied_share: .*\n {2}revision_score: /);
    }
  });
});
