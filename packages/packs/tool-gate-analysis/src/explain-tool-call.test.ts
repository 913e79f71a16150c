import { describe, expect, it } from 'vitest';
import { explainToolCall } from './explain-tool-call.js';

describe('explainToolCall', () => {
  it('traces segments, findings and the six answers', async () => {
    const trace = await explainToolCall({
      tool: 'Bash',
      arguments: { command: 'git status && sudo rm -rf /' },
      grant: ['Bash'],
      task: 'Fix the build.',
    });
    expect(trace).toContain('command: git status && sudo rm -rf /');
    expect(trace).toMatch(/segments \(2\):\n {2}1\. git status\n {2}2\. sudo rm -rf \//);
    expect(trace).toContain('shell.rm.recursive-force:/  [destructive 0.95]');
    expect(trace).toMatch(/destructive\s+0\.95/);
    expect(trace).toMatch(/disposition\s+deny \(confidence 0\.95/);
  });

  it('says when the state is not a tool-gate state', async () => {
    expect(await explainToolCall('nonsense')).toContain('not a tool-gate state');
  });
});
