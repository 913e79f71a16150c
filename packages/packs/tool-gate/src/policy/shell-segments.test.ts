import { describe, expect, it } from 'vitest';
import { segmentShellCommand } from './shell-segments.js';

describe('segmentShellCommand', () => {
  it('splits at every list and pipeline operator', () => {
    expect(segmentShellCommand('a && b || c; d | e |& f & g\nh')).toEqual({
      segments: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
      complete: true,
    });
  });

  it('keeps operators inside quotes as data', () => {
    expect(segmentShellCommand(`git commit -m "fix; rm -rf / && x" && echo 'a|b'`)).toEqual({
      segments: ['git commit -m "fix; rm -rf / && x"', "echo 'a|b'"],
      complete: true,
    });
    expect(segmentShellCommand('echo a\\;b').segments).toEqual(['echo a\\;b']);
  });

  it('treats harmless redirections as part of the command', () => {
    expect(segmentShellCommand('npm test 2>&1 >/dev/null')).toEqual({
      segments: ['npm test 2>&1 >/dev/null'],
      complete: true,
    });
  });

  it('marks constructs it does not model as incomplete', () => {
    for (const command of [
      'echo $(rm -rf /)',
      'echo `id`',
      'echo "$(id)"',
      '(cd x && rm y)',
      '{ a; b; }',
      'cat <<EOF\nx\nEOF',
      'diff <(a) <(b)',
      'echo x > ~/.bashrc',
      'echo "unterminated',
    ]) {
      expect(segmentShellCommand(command).complete, command).toBe(false);
    }
  });

  it('drops comments', () => {
    expect(segmentShellCommand('ls # && rm -rf /').segments).toEqual(['ls']);
  });

  it('splits a 1 MB command (linear scan, no backtracking)', () => {
    const result = segmentShellCommand(`echo ${'a'.repeat(1_000_000)} && ls`);
    expect(result.segments).toHaveLength(2);
  });
});
