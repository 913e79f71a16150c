import { beforeAll, describe, expect, it } from 'vitest';
import { analyseToolCallSync } from '../analyse-tool-call.js';
import { loadBashParser } from '../bash-parser.js';
import { options } from '../vocabulary/option-vocabulary.js';
import { OPTION_SPECS } from '../vocabulary/program-options.js';
import { hasFlag, type OptionSpec, parseArguments, parseOptions, specOf } from './option-parse.js';

const CURL = options('-d= -X= -o= -H= -F= -T= --data= --header= -s -S -L -f --silent');

/** Each option as `name` or `name=value`, for short expectations. */
const read = (
  args: string[],
  spec: OptionSpec | typeof CURL = CURL,
  negativeNumbers?: 'positional' | 'option',
) => {
  const parsed = parseArguments(args, spec, negativeNumbers ? { negativeNumbers } : {});
  return {
    options: parsed.options.map((each) =>
      each.value === undefined ? each.name : `${each.name}=${each.value}`,
    ),
    positionals: parsed.positionals,
  };
};

describe('parseArguments', () => {
  it('splits clusters of short options', () => {
    expect(read(['-fsSL', 'u'])).toEqual({ options: ['-f', '-s', '-S', '-L'], positionals: ['u'] });
  });

  it.each([
    [
      ['-sd', '@.env', 'u'],
      ['-s', '-d=@.env'],
    ],
    [
      ['-sd@.env', 'u'],
      ['-s', '-d=@.env'],
    ],
    [
      ['-sXPOST', 'u'],
      ['-s', '-X=POST'],
    ],
    [
      ['-sLo', 'out.tgz', 'u'],
      ['-s', '-L', '-o=out.tgz'],
    ],
  ])('a value-taking letter in a cluster takes the rest or the next argument: %j', (args, expected) => {
    expect(read(args)).toEqual({ options: expected, positionals: ['u'] });
  });

  it('reads `--opt=value`, `--opt value` and `-o value`, and a value that looks like an option', () => {
    expect(read(['--data=@x', '--header', 'A: b', '-o', '-', '-H', '-sd', 'u'])).toEqual({
      options: ['--data=@x', '--header=A: b', '-o=-', '-H=-sd'],
      positionals: ['u'],
    });
  });

  it('ends the options at --, and keeps a lone dash positional', () => {
    expect(read(['-s', '-', 'u', '--', '-sd', '--data'])).toEqual({
      options: ['-s'],
      positionals: ['-', 'u', '-sd', '--data'],
    });
    expect(parseArguments(['-s', '--', 'x'], CURL).endOfOptions).toBe(1);
  });

  it('reports unknown options as unknown, taking no value, whole or in a cluster', () => {
    const parsed = parseArguments(['--retry-delay', '3', '-zs', '-q'], CURL);
    expect(parsed.options.map((each) => [each.name, each.known, each.clustered])).toEqual([
      ['--retry-delay', false, false],
      ['-z', false, true],
      ['-s', true, true],
      ['-q', false, false],
    ]);
    expect(parsed.positionals).toEqual(['3']);
  });

  it('keeps repeated options, each with its value, in order', () => {
    expect(read(['-H', 'a: 1', '-H', 'b: 2', '--header=c: 3', '-ss'])).toEqual({
      options: ['-H=a: 1', '-H=b: 2', '--header=c: 3', '-s', '-s'],
      positionals: [],
    });
  });

  it('reads a single-dash spelling the specification lists whole as one option', () => {
    const spec = options('-vv -out= -t=');
    expect(read(['-vv', '-out', 'f', '-t=app'], spec)).toEqual({
      options: ['-vv', '-out=f', '-t==app'],
      positionals: [],
    });
  });

  it('reads `-5` as a positional unless told it is an option', () => {
    expect(read(['-5', 'f'])).toEqual({ options: [], positionals: ['-5', 'f'] });
    expect(read(['-1', 'f'], CURL, 'option')).toEqual({ options: ['-1'], positionals: ['f'] });
  });

  it('ends the options at the first positional when told to, as wrappers read theirs', () => {
    const parsed = parseArguments(['-nu', 'root', 'rm', '-rf', '/'], options('-u='), {
      firstPositionalEndsOptions: true,
    });
    expect(parsed.options.map((each) => [each.name, each.value])).toEqual([
      ['-n', undefined],
      ['-u', 'root'],
    ]);
    expect(parsed.positionals).toEqual(['rm', '-rf', '/']);
    expect(read(['rm', '-rf', '/'], options('-u='))).toEqual({
      options: ['-r', '-f'],
      positionals: ['rm', '/'],
    });
  });

  it('a valued option at the end takes nothing', () => {
    expect(read(['u', '-d'])).toEqual({ options: ['-d'], positionals: ['u'] });
    expect(read(['u', '--data'])).toEqual({ options: ['--data'], positionals: ['u'] });
  });

  it('the first table that lists a spelling decides', () => {
    const spec = specOf(options('-t='), options('-t'));
    expect(spec('-t')).toEqual({ takesValue: true });
    expect(spec('-x')).toBeUndefined();
  });
});

describe('parseOptions', () => {
  it('gives flags and operands', () => {
    expect(parseOptions(['-rf', 'build', '--force=yes', '--', '-x'])).toEqual({
      flags: ['-r', '-f', '--force=yes'],
      operands: ['build', '-x'],
    });
    expect(hasFlag(parseOptions(['--force=yes']), '--force')).toBe(true);
  });

  it('an option value in a cluster is not an operand (`git checkout -fb topic`)', () => {
    expect(parseOptions(['-fb', 'topic'], OPTION_SPECS['git checkout'])).toEqual({
      flags: ['-f', '-b'],
      operands: [],
    });
    expect(parseOptions(['-fdxe', 'keep', 'src'], OPTION_SPECS['git clean']).operands).toEqual(['src']);
  });
});

describe('the rules read options through it', () => {
  const destructive = (command: string) =>
    analyseToolCallSync({ tool: 'Bash', arguments: { command }, grant: ['Bash'], task: 'Fix the bug.' })
      .answers.destructive.noul;

  beforeAll(async () => {
    await loadBashParser();
  });

  // Before the one parser, `-qAc` hid psql's SQL (an unknown word, then an operand), and `-f`'s
  // script file hid the file sed edits in place.
  it.each([
    'psql -qAc "DROP TABLE users"',
    'mysql -Bse "DELETE FROM users"',
    'sqlite3 -batch app.db "DROP TABLE sessions;"',
    'sed -i -f fix.sed /etc/hosts',
  ])('%j is destructive', (command) => {
    expect(destructive(command)).toBeGreaterThanOrEqual(0.7);
  });

  it.each(['psql -qAc "SELECT count(*) FROM users"', 'sqlite3 -batch app.db "SELECT 1"'])(
    '%j is not destructive',
    (command) => {
      expect(destructive(command)).toBeLessThan(0.2);
    },
  );

  it('a parser without clusters reads whole words and attached values', () => {
    const parsed = parseArguments(['-batch', '-cmd', '.tables', '-cSELECT 1'], options('-c= -cmd='), {
      clusters: false,
    });
    expect(parsed.options.map((each) => [each.name, each.value])).toEqual([
      ['-batch', undefined],
      ['-cmd', '.tables'],
      ['-c', 'SELECT 1'],
    ]);
  });
});

describe('an option whose value is not an option', () => {
  const spec: OptionSpec = (name) =>
    name === '--exec' || name === '-e' ? { takesValue: true, valueNotOption: true } : undefined;

  it('takes the next word when it is not an option', () => {
    expect(read(['--exec', 'cmd', 'x'], spec)).toEqual({ options: ['--exec=cmd'], positionals: ['x'] });
    expect(read(['-e', 'cmd'], spec)).toEqual({ options: ['-e=cmd'], positionals: [] });
  });

  it('leaves an option after it to be read as one', () => {
    expect(read(['--exec', '-v', 'x'], spec)).toEqual({ options: ['--exec', '-v'], positionals: ['x'] });
    expect(read(['-e', '-', 'x'], spec)).toEqual({ options: ['-e'], positionals: ['-', 'x'] });
  });
});

describe('specOf', () => {
  it('reads each table as written: a flag spelling wins over a value spelling, the first table deciding', () => {
    const first = options('-x -x= --tag=');
    const spec = specOf(first, options('--tag -y='));
    expect(spec('-x')).toEqual({ takesValue: false });
    expect(spec('--tag')).toEqual({ takesValue: true });
    expect(spec('-y')).toEqual({ takesValue: true });
    expect(spec('-z')).toBeUndefined();
    // The same table read again gives the same answers (its reading is kept).
    expect(specOf(first)('--tag')).toEqual({ takesValue: true });
    expect(specOf(first)('-x')).toEqual({ takesValue: false });
  });
});
