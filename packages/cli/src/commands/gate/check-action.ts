import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { invocationIo } from '../../invocation-io.js';
import { readStandardInput, standardInputLines } from '../../standard-input.js';
import { createGateFromOptions, type GateCommandOptions } from './gate-options.js';

export interface GateCheckOptions extends GateCommandOptions {
  readonly state?: string;
  readonly jsonl?: boolean;
}

/** `arbiter gate`: one state in, one verdict record out; `--jsonl` streams many, in order. */
export async function runGateCheck(options: GateCheckOptions): Promise<void> {
  const gate = await createGateFromOptions(options);
  if (options.jsonl === true) {
    const lines =
      options.state === undefined
        ? standardInputLines()
        : createInterface({
            input: (await import('node:fs')).createReadStream(options.state),
            crlfDelay: Number.POSITIVE_INFINITY,
          });
    let failed = false;
    let lineNumber = 0;
    for await (const line of lines) {
      lineNumber++;
      if (line.trim() === '') continue;
      let id: unknown;
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        id = typeof parsed === 'object' && parsed !== null ? parsed.id : undefined;
        // A line is either a bare state or a dev-set style {id, state, …} record.
        const state = typeof parsed.state === 'object' && parsed.state !== null ? parsed.state : parsed;
        const verdict = await gate.check(state as never);
        invocationIo().writeStdout(`${JSON.stringify(id === undefined ? verdict : { id, ...verdict })}\n`);
      } catch (error) {
        failed = true;
        const message = `line ${lineNumber}: ${error instanceof Error ? error.message : String(error)}`;
        invocationIo().writeStdout(
          `${JSON.stringify(id === undefined ? { error: message } : { id, error: message })}\n`,
        );
      }
    }
    if (failed) process.exitCode = 1;
    return;
  }
  const text =
    options.state === undefined ? await readStandardInput() : await readFile(options.state, 'utf8');
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch (error) {
    throw new Error(`the state is not valid JSON: ${(error as Error).message}`);
  }
  const verdict = await gate.check(state as never);
  invocationIo().writeStdout(`${JSON.stringify(verdict, null, 2)}\n`);
}
