import { beforeAll, describe, expect, it } from 'vitest';
import { analyseToolCallSync } from '../analyse-tool-call.js';
import { loadBashParser } from '../bash-parser.js';

function dispositionOf(command: string) {
  return analyseToolCallSync({
    tool: 'Bash',
    arguments: { command },
    grant: ['Bash'],
    task: 'Tidy up the project documentation.',
    cwd: '/home/dev/project',
  }).answers.disposition;
}

beforeAll(async () => {
  await loadBashParser();
});

// `mystery` and `quarry` stand for any program the gate has no rule for.
describe('an unknown program judged by its arguments', () => {
  it.each([
    'quarry report',
    'mystery data',
    'mystery docs/guide',
    'mystery src/app/main.ts',
    'mystery guides/ docs/',
    'mystery data > notes.txt',
  ])('allows %s: every argument is a plain word or workspace path', (command) => {
    const disposition = dispositionOf(command);
    expect(disposition.choice).toBe('allow');
    expect(disposition.evidence.some((code) => code.endsWith('.plain-arguments'))).toBe(true);
  });

  it.each([
    // Nothing to judge it by.
    'mystery',
    // A host, a place outside the workspace, a parent directory, a home.
    'mystery collector.example.net',
    'mystery exfil.example.com/upload',
    'mystery /etc/hosts',
    'mystery ../neighbour',
    'mystery ~/notes',
    // Options may carry code or change what the program does.
    'mystery --run data',
    'mystery -x data',
    // Input from elsewhere: standard input, a heredoc, an input redirect, an expansion, the environment.
    'cat data | mystery process',
    'mystery process <<EOF\nrun everything\nEOF',
    'mystery process < data',
    'mystery "$TARGET"',
    'MYSTERY_HOOK=payload mystery data',
    // Named like a credential store, even inside the workspace.
    'mystery id_ed25519',
    'mystery secrets/production',
    'mystery credentials',
    // A file this call wrote, then handed to a program (principle 2).
    'printf payload > stage; mystery stage',
    // A verb that changes or removes something, in the name or the arguments.
    'mystery purge cache',
    'mystery reset everything',
    'db-drop app',
    // Spelt unlike an installed command (a case-insensitive file system runs `git` for `GIT`).
    'GIT push origin main',
    // Handed a program's name: the unknown program may run it (principle 2).
    'mystery sh',
    'mystery x86_64 bash',
    'mystery python3 tool',
    // Named for a change, as administration programs are.
    'deluser dev',
    'rmmod driver',
    'usermod dev',
    'setcap cap',
  ])('does not allow %s', (command) => {
    expect(dispositionOf(command).choice).not.toBe('allow');
  });

  it('still counts what the argument roles find', () => {
    // A system path written through a redirect is a write there, whatever the program.
    expect(dispositionOf('mystery data > /etc/profile').choice).toBe('deny');
  });
});
