import { expect } from 'vitest';

/** What the quota tests read of a UHP response (`POST /v1/responses`, an answer or a refusal). */
export interface TaskBody {
  id: string;
  status: string;
  metadata: { session_id: string };
  output: { content?: { annotations?: unknown[] }[] }[];
  error: { type: string; code: string; message: string; detail: Record<string, unknown> | null } | null;
}

/**
 * Several principals of one running server, as the per-principal quota tests use them: a key made
 * for each through the admin API, tasks sent as one over HTTP, sessions deleted to free what they
 * hold. Every request is a real one; a key that cannot be made fails the test where it is asked for.
 */
export function quotaPrincipals(server: { readonly url: string }, adminKey: string) {
  return {
    async keyFor(principal: string): Promise<string> {
      const response = await fetch(`${server.url}/v1/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ principal }),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { key: string }).key;
    },

    /** Starts a task as `key`; `background` answers at once instead of when the task ends. */
    async task(
      key: string,
      input: string,
      options: { background?: boolean } = {},
    ): Promise<{ status: number; body: TaskBody }> {
      const response = await fetch(`${server.url}/api/harness/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input, ...options }),
      });
      return { status: response.status, body: (await response.json()) as TaskBody };
    },

    /** Deletes a session, freeing its workspace and artifacts; returns the status. */
    async deleteSession(key: string, sessionId: string): Promise<number> {
      const response = await fetch(`${server.url}/api/harness/v1/sessions/${sessionId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}` },
      });
      return response.status;
    },
  };
}
