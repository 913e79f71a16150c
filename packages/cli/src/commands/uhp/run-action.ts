import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { CreateResponseRequest, ProducedFile, UhpResponse } from '@arbiter/uhp';
import { invocationStderr, invocationStdout } from '../../invocation-io.js';
import { openUhpContext } from './command-context.js';
import { ArtifactDirectory } from './file-download.js';
import { JsonLinesRenderer, type RunRenderer, TerminalRenderer } from './run-renderer.js';
import { QuietSpinner } from './spinner.js';
import { resolveThread } from './thread.js';

export interface RunOptions {
  readonly file?: string[];
  readonly model?: string;
  readonly maxOutputTokens?: number;
  readonly continue?: boolean;
  readonly session?: string;
  readonly out?: string;
  readonly json?: boolean;
}

/** The deterministic model every Arbiter server has; it follows @-directives only. */
const OFFLINE_MODEL_ID = 'arbiter-offline';
const OFFLINE_MODEL_NOTE =
  'arbiter-offline follows @-directives only (@say, @write, @read, @shell, …; docs/uhp-server.md) and does not read free text; to have a real model do the task, configure a provider in the agent section of the server configuration (docs/harnesses.md, Providers) and pass --model';

/** Exit statuses of `arbiter uhp run`, by the task's final status. */
export const RUN_EXIT_CODES = {
  completed: 0,
  failed: 1,
  cancelled: 1,
  incomplete: 3,
  in_progress: 1,
  interrupted: 130,
};

async function readInputFile(path: string): Promise<{ name: string; bytes: Buffer }> {
  try {
    return { name: basename(path), bytes: await readFile(resolve(path)) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`Cannot read --file ${path} (${code}).`);
  }
}

/** `arbiter uhp run "<task>"`: send a task to the active harness and follow it live. */
export async function runTaskCommand(task: string, options: RunOptions): Promise<void> {
  const { client, store, connection } = await openUhpContext();
  const thread = await resolveThread(client, store, connection, options);
  const stdout = invocationStdout();
  const stderr = invocationStderr();
  const spinner = new QuietSpinner(stderr, { enabled: !options.json });
  const renderer: RunRenderer = options.json
    ? new JsonLinesRenderer(stdout, stderr)
    : new TerminalRenderer(stdout, stderr, spinner, stdout.isTTY);

  const uploads = [];
  for (const path of options.file ?? []) {
    const file = await readInputFile(path);
    uploads.push(await client.files.upload(new Blob([new Uint8Array(file.bytes)]), file.name));
  }
  const request: CreateResponseRequest = {
    input:
      uploads.length === 0
        ? task
        : [
            {
              role: 'user',
              content: [
                { type: 'input_text', text: task },
                ...uploads.map((upload) => ({
                  type: 'input_file',
                  file_id: upload.id,
                  filename: upload.filename,
                })),
              ],
            },
          ],
    // A continued task runs on its session's harness; naming one could only cause harness_mismatch.
    ...(thread.harnessId && !thread.previousResponseId ? { metadata: { harness_id: thread.harnessId } } : {}),
    ...(thread.previousResponseId ? { previous_response_id: thread.previousResponseId } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.maxOutputTokens !== undefined ? { max_output_tokens: options.maxOutputTokens } : {}),
  };

  // A closed pipe (`| head`) ends our interest in the output, not the task: it stays on the server.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });

  const controller = new AbortController();
  let interrupted = false;
  const onInterrupt = () => {
    if (interrupted) process.exit(RUN_EXIT_CODES.interrupted); // a second Ctrl-C leaves without waiting
    interrupted = true;
    renderer.note('cancelling the task on the server… (Ctrl-C again to leave without waiting)');
    controller.abort(new Error('Interrupted.'));
  };
  process.on('SIGINT', onInterrupt);

  if (thread.origin === 'server')
    renderer.note(`continuing session ${thread.name} as recorded by the server`);
  renderer.note(
    `running on ${connection.url}${thread.harnessId ? ` with harness ${thread.harnessId}` : ''}; the run is owned by the server: it goes on if this terminal closes, Ctrl-C cancels it`,
  );
  spinner.quiet('waiting for the server');

  const files: ProducedFile[] = [];
  let final: UhpResponse | null = null;
  let saved = '';
  try {
    const stream = await client.responses.stream(request, { signal: controller.signal });
    let modelChecked = false;
    for await (const event of stream) {
      renderer.render(event);
      if (event.type === 'status' && !modelChecked) {
        modelChecked = true;
        // A model the harness cannot serve is replaced by its default; say so where it is seen.
        if (options.model !== undefined && event.model !== options.model) {
          renderer.warn(
            `model ${options.model} is not served by this harness; the task runs on ${event.model} instead (\`arbiter uhp models\` lists what it serves)`,
          );
        }
        if (event.model === OFFLINE_MODEL_ID) renderer.warn(OFFLINE_MODEL_NOTE);
      }
      // A file may be announced again (a resumed stream, a reread response): it is one file.
      if (event.type === 'file-produced' && !files.some((file) => file.fileId === event.file.fileId))
        files.push(event.file);
      if (event.type === 'done') final = event.response;
      if (event.type === 'status' && event.sessionId && saved !== event.responseId) {
        // Saved as soon as the server names the task, so an interrupted run can still be continued.
        saved = event.responseId;
        store.recordSession({
          name: thread.name ?? event.sessionId,
          server: connection.url,
          harnessId: event.harnessId ?? thread.harnessId ?? null,
          sessionId: event.sessionId,
          lastResponseId: event.responseId,
          updatedAt: Date.now(),
        });
        await store.save();
      }
    }
  } catch (error) {
    if (!interrupted) throw error;
    renderer.close();
    renderer.note('cancelled on the server');
    process.exitCode = RUN_EXIT_CODES.interrupted;
    return;
  } finally {
    process.off('SIGINT', onInterrupt);
    spinner.stop();
  }
  renderer.close();
  if (final === null) throw new Error('The server ended the run without a final response.');
  if (files.length > 0) {
    if (options.out === undefined) {
      const session = final.metadata?.session_id;
      renderer.note(`files stay on the server${session ? `: arbiter uhp files ${session} --out DIR` : ''}`);
    } else {
      const directory = new ArtifactDirectory(options.out);
      for (const file of files) {
        const path = await directory.save(client, file);
        if (path !== null) renderer.note(`saved ${file.filename} as ${path}`);
      }
    }
  }
  process.exitCode = RUN_EXIT_CODES[final.status];
}
