import { messageItemSchema } from '@arbiter/uhp';
import { invocationIo } from '../../invocation-io.js';
import { openUhpContext } from './command-context.js';
import { ArtifactDirectory } from './file-download.js';
import { formatUsage } from './run-renderer.js';

const when = (seconds: number | undefined) =>
  seconds === undefined ? '?' : new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 19);

/** A local session name stands for its session id; anything else is taken as an id. */
async function sessionIdFor(nameOrId: string) {
  const context = await openUhpContext();
  const local = context.store.session(nameOrId, context.connection.url);
  return { ...context, sessionId: local?.sessionId ?? nameOrId };
}

/** `arbiter uhp sessions`: the server's sessions (with local names), or the local ones if it lists none. */
export async function sessionsCommand(options: { all?: boolean }): Promise<void> {
  const { client, store, connection } = await openUhpContext();
  const local = store.sessions(connection.url);
  const capabilities = await client.capabilities();
  if (capabilities.session_listing !== true) {
    invocationIo().writeStdout(
      'The server does not list sessions; these are the ones this machine remembers:\n',
    );
    for (const session of local)
      invocationIo().writeStdout(`  ${session.name}  ${session.sessionId}  last ${session.lastResponseId}\n`);
    return;
  }
  const harness = options.all ? undefined : connection.harnessId;
  let count = 0;
  for await (const session of client.sessions.listAll({ limit: 100, ...(harness ? { harness } : {}) })) {
    const name = local.find((saved) => saved.sessionId === session.id && saved.name !== session.id)?.name;
    invocationIo().writeStdout(
      `${session.id}  ${session.status ?? '?'}  ${when(session.updated_at ?? session.created_at)}  ${session.title ?? ''}${name ? `  [${name}]` : ''}\n`,
    );
    count++;
  }
  if (count === 0)
    invocationIo().writeStdout(
      `No sessions${harness ? ` for harness ${harness} (--all for every harness)` : ''}.\n`,
    );
}

/** `arbiter uhp show <id>`: a task (resp_…) or a session's transcript, rebuilt from the server. */
export async function showCommand(id: string): Promise<void> {
  if (id.startsWith('resp_')) {
    const { client } = await openUhpContext();
    printResponse(await client.responses.retrieve(id));
    return;
  }
  const { client, sessionId } = await sessionIdFor(id);
  const session = await client.sessions.retrieve(sessionId);
  invocationIo().writeStdout(
    `Session ${session.id} · harness ${session.harness_id ?? '?'} · ${session.status ?? '?'}\n`,
  );
  for (const turn of await client.sessions.turns(sessionId)) {
    printResponse(await client.responses.retrieve(turn.response_id));
  }
}

function printResponse(
  response: Awaited<ReturnType<import('@arbiter/uhp').UhpClient['responses']['retrieve']>>,
) {
  invocationIo().writeStdout(
    `\n── ${response.id} · ${response.status} · ${response.model} · ${when(response.created_at)}\n`,
  );
  for (const item of response.output) {
    const message = messageItemSchema.safeParse(item);
    if (message.success)
      invocationIo().writeStdout(`${message.data.content.map((part) => part.text).join('')}\n`);
    else if (item.type === 'function_call' && 'name' in item)
      invocationIo().writeStdout(`⚙ ${String(item.name)}\n`);
  }
  if (response.error)
    invocationIo().writeStdout(`error: ${response.error.message} (${response.error.code})\n`);
  invocationIo().writeStdout(`${formatUsage(response.usage ?? null)}\n`);
}

/** `arbiter uhp files <session> [--out DIR]`: the session's artifacts, optionally downloaded. */
export async function filesCommand(nameOrId: string, options: { out?: string }): Promise<void> {
  const { client, sessionId } = await sessionIdFor(nameOrId);
  const files = await client.sessions.files(sessionId);
  if (files.length === 0) invocationIo().writeStdout('The session has no files.\n');
  const directory = options.out === undefined ? null : new ArtifactDirectory(options.out);
  for (const file of files) {
    invocationIo().writeStdout(
      `${file.id}  ${file.filename}  ${file.bytes ?? '?'} bytes  ${when(file.created_at)}\n`,
    );
    if (directory !== null && file.container_id) {
      const path = await directory.save(client, {
        containerId: file.container_id,
        fileId: file.id,
        filename: file.filename,
        downloadUrl: null,
      });
      if (path !== null) invocationIo().writeStdout(`  saved as ${path}\n`);
    }
  }
}

/** `arbiter uhp cancel <id>`: a task (resp_…) or whatever runs in a session. */
export async function cancelCommand(id: string): Promise<void> {
  if (id.startsWith('resp_')) {
    const { client } = await openUhpContext();
    const response = await client.responses.cancel(id);
    invocationIo().writeStdout(`${response.id}: ${response.status}\n`);
    return;
  }
  const { client, sessionId } = await sessionIdFor(id);
  await client.sessions.cancel(sessionId);
  invocationIo().writeStdout(`Cancellation requested for session ${sessionId}.\n`);
}
