import {
  type SavedConnection,
  type SavedSession,
  UhpApiError,
  type UhpClient,
  type UhpLocalStore,
} from '@arbiter/uhp';

/** Where the next task goes: the local session name it is saved under and the response it follows. */
export interface Thread {
  readonly name: string | null;
  readonly previousResponseId: string | null;
  readonly harnessId: string | undefined;
  /** How the thread was found, for the user. */
  readonly origin: 'new' | 'local' | 'server';
}

/** Session ids of UHP servers (`hsess_…`), as opposed to the local names a user gives sessions. */
const SESSION_ID = /^hsess_[0-9A-Za-z]+$/;

/** The server's own record of a session's last task: for when local state is gone. */
async function lastResponseOf(client: UhpClient, sessionId: string): Promise<string | null> {
  const turns = await client.sessions.turns(sessionId);
  return turns.at(-1)?.response_id ?? null;
}

async function latestServerSession(client: UhpClient, harnessId: string | undefined) {
  let latest: { id: string; harness_id?: string | undefined; at: number } | null = null;
  for await (const session of client.sessions.listAll({
    limit: 100,
    ...(harnessId ? { harness: harnessId } : {}),
  })) {
    const at = session.updated_at ?? session.created_at ?? 0;
    if (latest === null || at > latest.at) latest = { id: session.id, harness_id: session.harness_id, at };
  }
  return latest;
}

/**
 * Resolves `--continue` / `--session NAME` to a previous response id: from the local store first, and
 * from the server (session listing and turns) when the local state is gone.
 */
export async function resolveThread(
  client: UhpClient,
  store: UhpLocalStore,
  connection: SavedConnection,
  options: { continue?: boolean; session?: string },
): Promise<Thread> {
  const activeHarness = connection.harnessId;
  if (options.continue && options.session !== undefined) {
    throw new Error('Use either --continue or --session NAME, not both.');
  }
  if (options.continue) {
    const local = store.latestSession(connection.url, activeHarness);
    if (local) return localThread(local);
    const remote = await latestServerSession(client, activeHarness);
    const previous = remote ? await lastResponseOf(client, remote.id) : null;
    if (!remote || previous === null) {
      throw new Error('There is no session to continue on this server; run without --continue to start one.');
    }
    return {
      name: remote.id,
      previousResponseId: previous,
      harnessId: remote.harness_id ?? activeHarness,
      origin: 'server',
    };
  }
  if (options.session !== undefined) {
    const local = store.session(options.session, connection.url);
    if (local) return localThread(local);
    // A value shaped like a server session id names a session that must exist: starting a new
    // session under it would silently drop the conversation the user meant to continue.
    const isSessionId = SESSION_ID.test(options.session);
    const listing = await client.capabilities().then((capabilities) => capabilities.session_listing === true);
    if (isSessionId && !listing) {
      throw new Error(
        `${connection.url} cannot look sessions up by id, so ${options.session} cannot be continued.`,
      );
    }
    if (listing) {
      try {
        const previous = await lastResponseOf(client, options.session);
        if (previous !== null) {
          const session = await client.sessions.retrieve(options.session);
          return {
            name: options.session,
            previousResponseId: previous,
            harnessId: session.harness_id ?? activeHarness,
            origin: 'server',
          };
        }
      } catch (error) {
        // Not a session id the server knows: NAME starts a new, named session.
        if (!(UhpApiError.isInstance(error) && error.status === 404)) throw error;
      }
      if (isSessionId) {
        throw new Error(
          `There is no session ${options.session} with a task on ${connection.url}; \`arbiter uhp sessions --all\` lists them. A name that is not a session id starts a new session.`,
        );
      }
    }
    return { name: options.session, previousResponseId: null, harnessId: activeHarness, origin: 'new' };
  }
  return { name: null, previousResponseId: null, harnessId: activeHarness, origin: 'new' };
}

/** A thread the local store remembers. */
function localThread(session: SavedSession): Thread {
  return {
    name: session.name,
    previousResponseId: session.lastResponseId,
    harnessId: session.harnessId ?? undefined,
    origin: 'local',
  };
}
