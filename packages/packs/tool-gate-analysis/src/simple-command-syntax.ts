import type { ShellNode } from './shell-syntax.js';

/**
 * The syntax tree of a plain command, built without the bash parser: words of letters, digits and
 * `_ @ % + , . : / - =` separated by single spaces, such as `git status` or `rm -rf build`. Most
 * agent commands are like this, and tree-sitter-bash in WebAssembly costs about 0.35 µs per
 * character, more than the whole rest of a tool-gate verdict for them.
 *
 * The tree is the one tree-sitter-bash gives (`program(command(command_name(word) word…))`, with
 * `number` for words such as `-10` and `0x1f`), node for node and range for range; the test beside
 * this module checks that against the parser on the development set and on random commands. Any
 * command outside this small language, such as one with quotes, expansions, operators, keywords
 * or assignments, gets `null` and goes to the parser.
 */
export function simpleCommandSyntax(source: string): ShellNode | null {
  if (source.length > MAX_SIMPLE_COMMAND_LENGTH || !PLAIN_WORDS.test(source)) return null;
  const words = source.split(' ');
  if (PARSED_OTHERWISE.has(words[0]!)) return null;
  let start = 0;
  const children: SimpleNode[] = [];
  for (const word of words) {
    const node = new SimpleNode(
      NUMBER.test(word) ? 'number' : 'word',
      source,
      start,
      start + word.length,
      [],
    );
    children.push(
      children.length === 0 ? new SimpleNode('command_name', source, start, node.endIndex, [node]) : node,
    );
    start += word.length + 1;
  }
  const command = new SimpleNode('command', source, 0, source.length, children);
  return new SimpleNode('program', source, 0, source.length, [command]);
}

const MAX_SIMPLE_COMMAND_LENGTH = 1024;
/**
 * A command name of letters, digits and `_ . / -` (the grammar reads `a@b` or `a+=b` in that place
 * as something else), then arguments that do not start with `=` (`cmd ==` is a syntax error).
 */
const PLAIN_WORDS = /^[\w./-]+(?: [\w@%+,.:/-][\w@%+,.:/=-]*)*$/;
/** tree-sitter-bash's `number` token, where a whole word matches it. */
const NUMBER = /^-?(?:0x)?[0-9]+$/;
/**
 * First words that make the grammar build something other than a simple command (a lone `-` is
 * skipped, so what follows it becomes the command, or an assignment).
 */
const PARSED_OTHERWISE = new Set([
  '-',
  'case',
  'declare',
  'export',
  'for',
  'function',
  'if',
  'local',
  'readonly',
  'select',
  'typeset',
  'unset',
  'unsetenv',
  'until',
  'while',
]);

class SimpleNode implements ShellNode {
  constructor(
    readonly type: 'program' | 'command' | 'command_name' | 'word' | 'number',
    private readonly source: string,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly namedChildren: readonly SimpleNode[],
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get firstNamedChild(): SimpleNode | null {
    return this.namedChildren[0] ?? null;
  }

  childForFieldName(fieldName: string): SimpleNode | null {
    if (this.type !== 'command') return null;
    if (fieldName === 'name') return this.namedChildren[0] ?? null;
    if (fieldName === 'argument') return this.namedChildren[1] ?? null;
    return null;
  }

  childrenForFieldName(fieldName: string): readonly SimpleNode[] {
    if (this.type !== 'command') return [];
    if (fieldName === 'name') return this.namedChildren.slice(0, 1);
    if (fieldName === 'argument') return this.namedChildren.slice(1);
    return [];
  }

  /** As tree-sitter's: this node too when it is of the type, then its descendants in order. */
  descendantsOfType(type: string): readonly SimpleNode[] {
    const below = this.namedChildren.flatMap((child) => child.descendantsOfType(type));
    return this.type === type ? [this, ...below] : below;
  }
}
