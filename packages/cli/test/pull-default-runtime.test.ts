import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pullDefaultModel } from '../src/commands/models/cache-action.js';

// `npm start` on the default install, which leaves the local-model runtimes out: the default model
// is not pulled (nothing here could run it), and one line names the command that adds the runtime.
// The suite itself runs with the runtimes installed (scripts/test-prerequisites.sh), so their
// absence is simulated through the check pullDefaultModel is given.
const dataDir = await mkdtemp(join(tmpdir(), 'arbiter-pull-default-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('serve --pull-default without the local-model runtime', () => {
  it('pulls nothing and says which command adds the runtime', async () => {
    const lines: string[] = [];
    const asked: string[] = [];
    await pullDefaultModel(
      dataDir,
      (line) => lines.push(line),
      (name) => {
        asked.push(name);
        return false;
      },
    );
    expect(asked).toEqual(['onnxruntime-node']);
    expect(lines).toEqual([
      'Serving the built-in engine: the default model nli-deberta-v3-xsmall runs on onnxruntime-node, which the default install leaves out; add it with `npm run add-local-engines`, then start again to pull the model.',
    ]);
    expect(await readdir(dataDir)).toEqual([]);
  });
});
