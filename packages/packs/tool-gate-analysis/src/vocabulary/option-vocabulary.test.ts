import { describe, expect, it } from 'vitest';
import { options, readOptions } from './option-vocabulary.js';

const vocabulary = {
  global: options('--help -v --context='),
  subcommands: {
    build: { ...options('-t= --tag= --no-cache -q'), ...options('--push', 'publish') },
    'image ls': options('-a --format='),
  },
};

describe('readOptions', () => {
  it('finds the longest listed subcommand, skipping global options and their values', () => {
    expect(readOptions(vocabulary, ['--context', 'prod', 'image', 'ls', '-a']).subcommand).toBe('image ls');
    expect(readOptions(vocabulary, ['build', '-t', 'app', '.']).subcommand).toBe('build');
  });

  it('lists options no table knows, with whether a value came with them', () => {
    const reading = readOptions(vocabulary, [
      'build',
      '--squash',
      '--label=x',
      '-t',
      'app',
      '--secret',
      'id=a',
      '.',
    ]);
    expect(reading.unknown).toEqual([
      { option: '--squash', valued: false },
      { option: '--label', valued: true },
      { option: '--secret', valued: true },
    ]);
  });

  it('reads clusters of single letters and values attached to a letter', () => {
    expect(readOptions(vocabulary, ['build', '-qv', '-tapp', '.']).unknown).toEqual([]);
    expect(readOptions(vocabulary, ['build', '-qz', '.']).unknown.map((each) => each.option)).toEqual([
      '-qz',
    ]);
  });

  it('reports roles other than routine, and treats what follows -- as operands', () => {
    expect(readOptions(vocabulary, ['build', '--push', '.']).roles).toEqual([
      { option: '--push', role: 'publish' },
    ]);
    expect(readOptions(vocabulary, ['build', '.', '--', '--anything']).unknown).toEqual([]);
  });

  it('a closed vocabulary names an unlisted subcommand; an open one leaves it to the rule', () => {
    expect(readOptions({ ...vocabulary, closed: true }, ['deploy', 'x']).unknownSubcommand).toBe('deploy');
    expect(readOptions(vocabulary, ['deploy', 'x']).unknownSubcommand).toBeUndefined();
  });
});
