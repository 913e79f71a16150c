import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashParser, parseBash } from './bash-parser.js';
import type { ShellNode } from './shell-syntax.js';
import { simpleCommandSyntax } from './simple-command-syntax.js';

/** Everything the analyser can read of a tree, as plain data to compare. */
function describeTree(node: ShellNode): unknown {
  return {
    type: node.type,
    range: [node.startIndex, node.endIndex],
    text: node.text,
    name: node.childForFieldName('name')?.text ?? null,
    argument: node.childForFieldName('argument')?.text ?? null,
    arguments: node.childrenForFieldName('argument').map((child) => child?.text),
    commandNames: node.descendantsOfType('command_name').map((child) => child?.text),
    first: node.firstNamedChild?.type ?? null,
    children: node.namedChildren.map((child) => (child === null ? null : describeTree(child))),
  };
}

/** The parser's tree for a command the recogniser accepted must be the same tree, with no errors. */
function expectSameTreeAsParser(command: string): void {
  const simple = simpleCommandSyntax(command);
  if (simple === null) return;
  const parsed = parseBash(command);
  if (!parsed.ok) throw new Error(`the parser failed on ${JSON.stringify(command)}`);
  try {
    expect({ command, hasError: parsed.hasError }).toEqual({ command, hasError: false });
    expect(describeTree(simple)).toEqual(describeTree(parsed.root));
  } finally {
    parsed.tree.delete();
  }
}

const ORDINARY = [
  'git status',
  'git log --oneline -10',
  'git push --force=true origin main',
  'rm -rf /',
  'rm -f -r /home/user',
  '/usr/bin/git reset --hard',
  'sudo rm -rf /home/user',
  'env GIT_AUTHOR_NAME=test git reset --hard',
  'nice -n 19 rm -rf build',
  'npm run test:unit',
  'kubectl delete pod web-0 -n prod',
  'aws s3 rm s3://bucket/key --recursive',
  'restic forget --keep-daily 7 --keep-weekly 4 --prune',
  'docker run --rm -v /:/host alpine',
  'scp user@host:/etc/passwd .',
  'chmod 777 /etc/shadow',
  'sleep 0x10',
  'x -0x1 01 -00',
  '1 2 3',
  'then ls',
  'time make',
  'coproc cat',
];

describe('simpleCommandSyntax', () => {
  beforeAll(async () => {
    await loadBashParser();
  });

  it('builds the parser’s own tree for ordinary commands', () => {
    for (const command of ORDINARY) {
      expect(simpleCommandSyntax(command), command).not.toBeNull();
      expectSameTreeAsParser(command);
    }
  });

  it('leaves everything outside plain words to the parser', () => {
    for (const command of [
      'echo "hi"',
      "echo 'hi'",
      'echo $HOME',
      'ls | wc -l',
      'a && b',
      'a; b',
      'cat > f',
      'ls *.ts',
      'cd ~',
      'echo a # comment',
      'echo a\\ b',
      'FOO=bar make',
      'A=b',
      'export A=b',
      'unset A',
      'if x',
      'for x',
      'cmd ==',
      'cmd  two-spaces',
      ' leading',
      'trailing ',
      'tab\there',
      'line\nbreak',
      '',
      'x'.repeat(1025),
    ]) {
      expect(simpleCommandSyntax(command), JSON.stringify(command)).toBeNull();
    }
  });

  it('agrees with the parser on random commands of plain words', () => {
    const pieces = [
      ...['git', 'rm', 'sudo', 'env', 'x', '-rf', '/', '.', '..', ':', ',', '%1', '@', '+', '-', '--'],
      ...['0x1', '0x', '0xff', '-0x1', '-10', '10', '01', '1e5', '1.5', '1_0', '-.5', '9.'],
      ...['a=b', '=', '=x', 'A_1=x', 'x=', 'a+=b', 'if', 'then', 'fi', 'do', 'done', 'for', 'in'],
      ...['case', 'esac', 'while', 'until', 'select', 'function', 'time', 'coproc', 'export'],
      ...['declare', 'typeset', 'local', 'readonly', 'unset', 'unsetenv', 'test', 'eval', 'exec'],
    ];
    const word = fc.oneof(
      fc.constantFrom(...pieces),
      fc.stringMatching(/^[\w@%+,.:/=-]{1,12}$/),
      fc.tuple(fc.constantFrom(...pieces), fc.constantFrom(...pieces)).map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), (words) => {
        expectSameTreeAsParser(words.join(' '));
      }),
      { numRuns: 3000 },
    );
  });
});
