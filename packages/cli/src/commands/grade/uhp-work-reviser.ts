import { DECISION_LIMITS } from '@arbiter/decision';
import type { WorkReviser, WorkVersion } from '@arbiter/rubric';
import { messageItemSchema, type UhpClient, type UhpResponse } from '@arbiter/uhp';

export interface UhpWorkReviserOptions {
  client: UhpClient;
  /** The response whose work is graded; revisions continue its session. */
  responseId: string;
  /** Grade this produced file (by file name) instead of the final message text. */
  artifact?: string;
  /** Added after the feedback in every revision turn (how to deliver the revision, for example). */
  instructions?: string;
}

/**
 * Revises work through the UHP session it came from: the feedback becomes the next turn
 * (`previous_response_id`), and the revised work is the final assistant message, or the named
 * artifact of the session.
 */
export function createUhpWorkReviser(options: UhpWorkReviserOptions): WorkReviser {
  let lastResponseId = options.responseId;
  const workOf = async (response: UhpResponse, signal?: AbortSignal): Promise<WorkVersion> => {
    if (response.status !== 'completed') {
      const detail = response.error ? `: ${response.error.message}` : '';
      throw new Error(`UHP response ${response.id} ended ${response.status}${detail}`);
    }
    const work =
      options.artifact === undefined
        ? finalMessageText(response)
        : await artifactText(options.client, response, options.artifact, signal);
    lastResponseId = response.id;
    return { work, responseId: response.id };
  };
  return {
    async current(signal) {
      return workOf(await options.client.responses.retrieve(options.responseId), signal);
    },
    async revise(feedback, signal) {
      const response = await options.client.responses.create(
        { input: revisionTurn(feedback, options), previous_response_id: lastResponseId },
        signal === undefined ? {} : { signal },
      );
      return workOf(response, signal);
    },
  };
}

function revisionTurn(feedback: string, options: UhpWorkReviserOptions): string {
  const delivery =
    options.artifact === undefined
      ? 'reply with the complete revised work'
      : `write the complete revised work to ${options.artifact}`;
  const parts = [
    `A reviewer graded your work against a rubric. Revise it to address the feedback below, then ${delivery}.`,
    feedback,
  ];
  if (options.instructions !== undefined && options.instructions !== '') parts.push(options.instructions);
  return parts.join('\n\n');
}

function finalMessageText(response: UhpResponse): string {
  // Unknown item types are allowed on the wire, so messages are picked out by their schema.
  const messages = response.output.flatMap((item) => {
    const message = messageItemSchema.safeParse(item);
    return message.success ? [message.data] : [];
  });
  const text =
    messages
      .at(-1)
      ?.content.map((part) => part.text)
      .join('') ?? '';
  if (text.trim() === '') throw new Error(`UHP response ${response.id} has no final message text to grade`);
  return text;
}

async function artifactText(
  client: UhpClient,
  response: UhpResponse,
  name: string,
  signal?: AbortSignal,
): Promise<string> {
  const sessionId = response.metadata?.session_id;
  if (sessionId === undefined)
    throw new Error(`UHP response ${response.id} names no session, so it has no artifacts`);
  const files = await client.sessions.files(sessionId);
  // The newest file of that name: a revision that rewrote it supersedes the earlier version.
  const matching = files.filter((file) => file.filename === name || file.filename.endsWith(`/${name}`));
  const file = matching.reduce<(typeof matching)[number] | undefined>(
    (newest, candidate) =>
      newest === undefined || (candidate.created_at ?? 0) >= (newest.created_at ?? 0) ? candidate : newest,
    undefined,
  );
  if (file === undefined) {
    const names = files.map((candidate) => candidate.filename).join(', ') || 'none';
    throw new Error(`the session of ${response.id} has no artifact named ${name} (artifacts: ${names})`);
  }
  if (file.container_id === undefined) throw new Error(`artifact ${name} names no container to read it from`);
  if (file.bytes !== undefined && file.bytes > DECISION_LIMITS.maxBodyBytes) {
    throw new Error(
      `artifact ${name} is ${file.bytes} bytes, above the ${DECISION_LIMITS.maxBodyBytes}-byte limit of a decision request`,
    );
  }
  const content = await client.containers.content(
    file.container_id,
    file.id,
    signal === undefined ? {} : { signal },
  );
  return content.text();
}
