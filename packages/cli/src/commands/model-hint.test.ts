import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli-run.js';
import { type InvocationIo, inputOf, withInvocationIo } from '../invocation-io.js';
import { createProgram } from '../program.js';
import { modelWouldHelp } from './model-hint.js';

async function decideInProcess(state: string, questions: object) {
  const directory = await mkdtemp(join(tmpdir(), 'arbiter-model-hint-'));
  const captured = { stdout: '', stderr: '' };
  const io: InvocationIo = {
    stdin: () => inputOf(state),
    writeStdout: (text) => {
      captured.stdout += text;
    },
    writeStderr: (text) => {
      captured.stderr += text;
    },
    isTerminal: () => false,
    ownsProcess: false,
  };
  try {
    const file = join(directory, 'questions.json');
    await writeFile(file, JSON.stringify(questions));
    // The built-in engine's pin: whatever models this machine has pulled, it answers.
    const exitCode = await withInvocationIo(io, () =>
      runCli(
        ['decide', '--state', '-', '--questions', file, '--model', 'arbiter-1.0.0'],
        { output: { writeOut: io.writeStdout, writeErr: io.writeStderr } },
        createProgram,
      ),
    );
    return { exitCode, ...captured };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describe('a model would help', () => {
  const exitCodeBefore = process.exitCode;
  afterEach(() => {
    process.exitCode = exitCodeBefore;
  });

  it('names the model to pull when the built-in engine found no evidence, and only then', async () => {
    const unrelated = await decideInProcess('Lorem ipsum dolor sit amet.', {
      planet: {
        type: 'choice',
        instructions: 'Which planet?',
        criteria: { mars: 'the red planet', venus: 'the hot planet' },
      },
    });
    expect(unrelated.stderr).toMatch(
      /^note: the built-in engine found no evidence for planet .*arbiter models pull \S+\n$/,
    );
    const related = await decideInProcess('My payouts have been failing for three days and I am furious.', {
      angry: { type: 'noul', instructions: 'Is the customer angry?' },
    });
    expect(related.stderr).toBe('');
  });

  it('says nothing for answers of a model, or when every answer had evidence', () => {
    expect(modelWouldHelp([{ id: 'x', engine: 'nli' }])).toBeUndefined();
    expect(modelWouldHelp([])).toBeUndefined();
    expect(
      modelWouldHelp([
        { id: 'a', engine: 'builtin' },
        { id: 'b', engine: undefined },
      ]),
    ).toContain('for a, b');
  });
});
