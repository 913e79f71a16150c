import { beforeAll, describe, expect, it } from 'vitest';
import { analyseToolCallSync } from '../analyse-tool-call.js';
import { loadBashParser } from '../bash-parser.js';

const codes = (command: string) =>
  analyseToolCallSync({
    tool: 'Bash',
    arguments: { command },
    grant: ['Bash'],
    task: 'Restart the dev server.',
  }).findings.map((finding) => finding.code);

beforeAll(async () => {
  await loadBashParser();
});

// kill, pkill and killall read their options with the one option parser (issue 27, item 4).
describe('signals read with the one option parser', () => {
  it('does not take a signal given to -s for a target', () => {
    // Before: the `1` of `-s 1` was read as process 1, every process.
    expect(codes('kill -s 1 4242')).toEqual(['proc.kill']);
    expect(codes('kill -n 9 4242')).toEqual(['proc.kill']);
  });

  it('still reads every process as every process', () => {
    expect(codes('kill -9 -1')).toContain('proc.kill-all');
    expect(codes('kill -- -1')).toContain('proc.kill-all');
    expect(codes('kill -l')).toEqual([]);
  });

  it('names the process, not a user or a signal', () => {
    expect(codes('pkill -HUP nginx')).toEqual(['proc.pkill:nginx']);
    expect(codes('killall -s KILL node')).toEqual(['proc.killall:node']);
    // Every process of a user is beyond the task.
    const user = analyseToolCallSync({
      tool: 'Bash',
      arguments: { command: 'pkill -u dev node' },
      grant: ['Bash'],
      task: 'Restart the dev server.',
    });
    expect(user.findings.map((finding) => finding.code)).toEqual(['proc.pkill:node']);
    expect(user.answers.disposition.choice).toBe('deny');
  });
});
