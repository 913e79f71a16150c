import { invocationIo } from '../../invocation-io.js';
import { openUhpContext } from './command-context.js';
import { describeHarness } from './connect-action.js';

/** `arbiter uhp harnesses`: the server's harnesses, the active one marked. */
export async function harnessesCommand(): Promise<void> {
  const { client, connection } = await openUhpContext();
  const harnesses = await client.harnesses.list();
  if (harnesses.length === 0) invocationIo().writeStdout('The server has no harnesses.\n');
  for (const harness of harnesses) {
    invocationIo().writeStdout(
      `${harness.id === connection.harnessId ? '*' : ' '} ${describeHarness(harness)}\n`,
    );
  }
}

/** `arbiter uhp models`: the active harness's models, or the whole catalogue without one. */
export async function modelsCommand(): Promise<void> {
  const { client, connection } = await openUhpContext();
  const mark = (available: boolean) => (available ? 'available  ' : 'unavailable');
  if (connection.harnessId) {
    const models = await client.harnesses.models(connection.harnessId);
    invocationIo().writeStdout(
      `Harness ${connection.harnessId}: default ${models.default ?? '?'}, fallback ${models.fallback ?? 'none'}\n`,
    );
    for (const model of models.models)
      invocationIo().writeStdout(
        `  ${mark(model.available)}  ${model.id}${model.label ? `  ${model.label}` : ''}\n`,
      );
    return;
  }
  const catalog = await client.models.list();
  for (const [backend, { default: fallback, models }] of Object.entries(catalog.backends)) {
    invocationIo().writeStdout(`${backend} (default ${fallback})\n`);
    for (const model of models)
      invocationIo().writeStdout(
        `  ${mark(model.available)}  ${model.id}${model.label ? `  ${model.label}` : ''}\n`,
      );
  }
}

/** `arbiter uhp use <harness>`: switch the active harness; saved sessions are kept. */
export async function useCommand(requested: string): Promise<void> {
  const { client, store } = await openUhpContext();
  const harnesses = await client.harnesses.list();
  const match = harnesses.find((harness) => harness.id === requested || harness.name === requested);
  if (!match) {
    const known = harnesses.map((harness) => harness.id).join(', ') || 'none';
    throw new Error(`The server has no harness '${requested}' (it has: ${known}). Nothing was changed.`);
  }
  store.useHarness(match.id);
  await store.save();
  invocationIo().writeStdout(`Active harness: ${match.name} (${match.id})\n`);
}
