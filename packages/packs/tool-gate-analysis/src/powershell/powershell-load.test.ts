import { describe, expect, it } from 'vitest';
import { analyseToolCall } from '../analyse-tool-call.js';
import { isPowerShellParserLoaded } from './powershell-parser.js';

/**
 * The PowerShell grammar loads only for calls that need it, and every call that needs it gets it
 * before its analysis: here the first call of the process is a Windows host's plain `dotnet test`,
 * which the gate reads as PowerShell without the word appearing anywhere.
 */
describe('loading the PowerShell grammar', () => {
  it('a POSIX call does not load it; the first Windows shell call does, and is understood', async () => {
    await analyseToolCall({ tool: 'Bash', arguments: { command: 'ls' }, grant: ['Bash'], task: 'List.' });
    expect(isPowerShellParserLoaded()).toBe(false);
    const analysis = await analyseToolCall({
      tool: 'run_shell_command',
      arguments: { command: 'dotnet test' },
      grant: ['run_shell_command'],
      task: 'Run the tests.',
      cwd: 'C:\\Users\\dev\\project',
    });
    expect(isPowerShellParserLoaded()).toBe(true);
    expect(analysis.answers.disposition.choice).toBe('allow');
  });
});
