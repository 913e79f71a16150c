import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadRubric } from './load-rubric.js';
import { parseRubricText } from './read-rubric-file.js';
import { RubricError } from './rubric-error.js';

const minimal = {
  name: 'release-notes',
  version: '1.0.0',
  criteria: [
    {
      id: 'covers_changes',
      type: 'score',
      question: 'How completely do the notes cover the changes?',
      levels: ['Most changes are missing.', 'Some changes are missing.', 'Every change is listed.'],
      pass_score: 1.5,
    },
    { id: 'no_jargon', type: 'noul', statement: 'The notes avoid internal jargon.', pass_probability: 0.6 },
  ],
};

function issuesOf(input: unknown): string[] {
  try {
    loadRubric(input);
  } catch (error) {
    if (RubricError.isInstance(error)) return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
    throw error;
  }
  throw new Error('the rubric was accepted');
}

describe('loadRubric', () => {
  it('builds one question per criterion and names the pack after the rubric', () => {
    const rubric = loadRubric(minimal);
    expect(rubric.pack).toEqual({
      name: 'arbiter/rubric/release-notes',
      version: '1.0.0',
      sha256: rubric.sha256,
    });
    expect(rubric.questions).toEqual({
      covers_changes: {
        type: 'score',
        instructions: 'How completely do the notes cover the changes?',
        criteria: ['Most changes are missing.', 'Some changes are missing.', 'Every change is listed.'],
      },
      no_jargon: { type: 'noul', instructions: 'The notes avoid internal jargon.' },
    });
    expect(rubric.definition.outcome).toEqual({
      min_confidence: 0.2,
      satisfied_share: 1,
      revision_score: 0.5,
    });
    expect(rubric.definition.criteria[0]).toMatchObject({ weight: 1, required: false });
  });

  it('hashes the definition with its defaults, whatever the key order or file format', () => {
    const spelledOut = {
      outcome: { revision_score: 0.5, satisfied_share: 1, min_confidence: 0.2 },
      criteria: minimal.criteria.map((criterion) => ({ required: false, weight: 1, ...criterion })),
      version: '1.0.0',
      name: 'release-notes',
    };
    const base = loadRubric(minimal).sha256;
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(loadRubric(spelledOut).sha256).toBe(base);
    expect(parseRubricText(JSON.stringify(minimal, null, 2), 'rubric.json').sha256).toBe(base);
    const yaml = [
      'name: release-notes',
      'version: 1.0.0',
      'criteria:',
      '  - id: covers_changes',
      '    type: score',
      '    question: How completely do the notes cover the changes?',
      '    levels: [Most changes are missing., Some changes are missing., Every change is listed.]',
      '    pass_score: 1.5',
      '  - { id: no_jargon, type: noul, statement: The notes avoid internal jargon., pass_probability: 0.6 }',
    ].join('\n');
    expect(parseRubricText(yaml, 'rubric.yaml').sha256).toBe(base);
  });

  it('is the sha256 of the RFC 8785 canonical JSON, defaults written out', () => {
    // Sorted keys, no spaces, shortest number forms: the exact bytes a verifier hashes.
    const canonical =
      '{"criteria":[{"id":"covers_changes","levels":["Most changes are missing.","Some changes are missing.",' +
      '"Every change is listed."],"pass_score":1.5,"question":"How completely do the notes cover the changes?",' +
      '"required":false,"type":"score","weight":1},{"id":"no_jargon","pass_probability":0.6,"required":false,' +
      '"statement":"The notes avoid internal jargon.","type":"noul","weight":1}],' +
      '"name":"release-notes","outcome":{"min_confidence":0.2,"revision_score":0.5,"satisfied_share":1},"version":"1.0.0"}';
    expect(loadRubric(minimal).sha256).toBe(createHash('sha256').update(canonical).digest('hex'));
  });

  it('changes the hash when a rule, a bar or a wording changes', () => {
    const base = loadRubric(minimal).sha256;
    const variants = [
      { ...minimal, outcome: { revision_score: 0.6 } },
      { ...minimal, version: '1.0.1' },
      { ...minimal, criteria: [{ ...minimal.criteria[0], pass_score: 2 }, minimal.criteria[1]] },
      { ...minimal, criteria: [minimal.criteria[0], { ...minimal.criteria[1], statement: 'No jargon.' }] },
      { ...minimal, criteria: [minimal.criteria[0], { ...minimal.criteria[1], weight: 2 }] },
    ];
    const hashes = new Set(variants.map((variant) => loadRubric(variant).sha256));
    expect(hashes.size).toBe(variants.length);
    expect(hashes.has(base)).toBe(false);
  });

  it('names the criterion and field of every problem', () => {
    const bad = {
      ...minimal,
      criteria: [
        { ...minimal.criteria[0], pass_score: 3 },
        { ...minimal.criteria[1], pass_probability: 1.5 },
        { id: 'clarity', type: 'score', question: 'How clear?', levels: ['Unclear'], pass_score: 0 },
        { id: 'covers_changes', type: 'noul', statement: 'Again.', pass_probability: 0.5 },
      ],
    };
    expect(issuesOf(bad)).toEqual([
      'criteria[0] "covers_changes" › pass_score: pass_score 3 is above the top level index 2 (levels are numbered from 0)',
      'criteria[1] "no_jargon" › pass_probability: pass_probability must be between 0 and 1',
      'criteria[2] "clarity" › levels: levels needs at least 2 entries',
      'criteria[3] "covers_changes" › id: id "covers_changes" is used twice',
    ]);
  });

  it('rejects unknown fields, bad types, names and versions with specific messages', () => {
    expect(issuesOf({ ...minimal, criteria: [{ ...minimal.criteria[1], pass_probablity: 0.6 }] })).toEqual([
      'criteria[0] "no_jargon": Unrecognized key: "pass_probablity"',
    ]);
    expect(issuesOf({ ...minimal, criteria: [{ ...minimal.criteria[1], type: 'choice' }] })).toEqual([
      'criteria[0] "no_jargon" › type: type must be "score" or "noul"',
    ]);
    expect(issuesOf({ ...minimal, name: 'Release Notes', version: 'one' })).toEqual([
      'name: name must be lowercase letters, digits, ".", "_" and "-"',
      'version: version must be a semantic version such as 1.0.0',
    ]);
    expect(issuesOf({ ...minimal, criteria: [] })).toEqual([
      'criteria: criteria must list at least one criterion',
    ]);
  });

  it('reports unparseable files as rubric errors', () => {
    expect(() => parseRubricText('{"name": ', 'broken.json')).toThrow(
      /invalid rubric broken.json:\n {2}- not valid JSON/,
    );
    expect(() => parseRubricText('name: [unclosed', 'broken.yaml')).toThrow(/not valid YAML/);
  });
});
