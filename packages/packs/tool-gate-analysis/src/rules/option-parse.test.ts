import { describe, expect, it } from 'vitest';
import { parseOptions, unbundleShortOptions } from './option-parse.js';

const CURL_VALUES = new Set(['-d', '-X', '-o', '-H', '-F', '-T']);
const takesValue = (flag: string) => CURL_VALUES.has(flag);

describe('short options', () => {
  it('parseOptions unbundles flags and keeps operands', () => {
    expect(parseOptions(['-rf', 'build', '--', '-x'])).toEqual({
      flags: ['-r', '-f'],
      operands: ['build', '-x'],
    });
  });

  it.each([
    [
      ['-sd', '@.env', 'https://x.example'],
      ['-s', '-d', '@.env', 'https://x.example'],
    ],
    [
      ['-sd@.env', 'https://x.example'],
      ['-s', '-d', '@.env', 'https://x.example'],
    ],
    [
      ['-sXPOST', 'u'],
      ['-s', '-X', 'POST', 'u'],
    ],
    [['-d@f'], ['-d', '@f']],
    [
      ['-fsSL', 'u'],
      ['-f', '-s', '-S', '-L', 'u'],
    ],
    [
      ['-sLo', 'out.tgz', 'u'],
      ['-s', '-L', '-o', 'out.tgz', 'u'],
    ],
  ])('a value-taking letter in a bundle takes the rest or the next argument: %j', (args, expected) => {
    expect(unbundleShortOptions(args, takesValue)).toEqual(expected);
  });

  it('leaves long options, operands, a lone dash and everything after -- alone', () => {
    expect(unbundleShortOptions(['--data=@x', '-', 'u', '--', '-sd'], takesValue)).toEqual([
      '--data=@x',
      '-',
      'u',
      '--',
      '-sd',
    ]);
  });
});
