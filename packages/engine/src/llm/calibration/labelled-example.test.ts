import { describe, expect, it } from 'vitest';
import { expectedOutcomeIndex, parseLabelledExamples } from './labelled-example.js';

describe('labelled calibration data', () => {
  it('parses JSON Lines and maps expected answers to outcome indices', () => {
    const examples = parseLabelledExamples(
      [
        '{"state":"payouts failing","question":{"type":"noul","instructions":"urgent?"},"expected":true}',
        '',
        '{"state":{"a":1},"question":{"type":"choice","instructions":"team?","criteria":{"billing":null,"tech":"bugs"}},"expected":"tech"}',
        '{"state":"x","question":{"type":"score","instructions":"severity?","criteria":["low","mid","high"]},"expected":2}',
      ].join('\n'),
    );
    expect(examples.map((example) => expectedOutcomeIndex(example.question, example.expected))).toEqual([
      0, 1, 2,
    ]);
  });

  it('names the line and the problem for bad data', () => {
    expect(() =>
      parseLabelledExamples('{"state":"s","question":{"type":"noul","instructions":"q"},"expected":"yes"}'),
    ).toThrow(/line 1: expected: a Noul example expects true or false/);
    expect(() =>
      parseLabelledExamples(
        '\n{"state":"s","question":{"type":"choice","instructions":"q","criteria":{"a":null}},"expected":"b"}',
      ),
    ).toThrow(/line 2: expected: .*one of its option names \(a\)/);
    expect(() =>
      parseLabelledExamples(
        '{"state":"s","question":{"type":"score","instructions":"q","criteria":["a","b"]},"expected":2}',
      ),
    ).toThrow(/level index from 0 to 1/);
    expect(() => parseLabelledExamples('{oops')).toThrow(/line 1: not JSON/);
    expect(() => parseLabelledExamples('\n\n')).toThrow(/no examples/);
  });
});
