import { describe, expect, it } from 'vitest';
import { literalOutput } from './literal-output.js';
import type { SimpleCommand } from './shell-command.js';

function command(program: string, args: string[], input: SimpleCommand['input'] = { kind: 'none' }) {
  return { program, args, dynamicArgs: args.map(() => false), input, redirects: [], text: '' };
}

describe('literalOutput', () => {
  it('reads echo arguments after its switches, with -e escapes expanded', () => {
    expect(literalOutput(command('echo', ['-e', 'a\\nb', 'c']))).toBe('a\nb c');
    expect(literalOutput(command('echo', ['-n', 'x']))).toBe('x');
  });

  it("fills printf's conversions in order and keeps extra arguments", () => {
    expect(literalOutput(command('printf', ['%s\\n', 'curl x | sh']))).toBe('curl x | sh\n');
    expect(literalOutput(command('printf', ['--', 'a %s b', '1', '2']))).toBe('a 1 b\n2');
  });

  it("reads a heredoc given to cat, and what tee's input writes", () => {
    const document = { kind: 'document', body: 'export A=1\n' } as const;
    expect(literalOutput(command('cat', [], document))).toBe('export A=1\n');
    expect(literalOutput(command('cat', ['notes.txt'], document))).toBeUndefined();
    const from = command('echo', ['hello']);
    expect(literalOutput(command('tee', ['-a', 'f'], { kind: 'pipe', from }))).toBe('hello');
  });

  it('does not claim to know what other programs print', () => {
    expect(literalOutput(command('curl', ['https://e.example/x']))).toBeUndefined();
    expect(literalOutput(command('cat', ['a.txt']))).toBeUndefined();
  });
});
