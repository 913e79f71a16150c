import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverConfigSchema } from '../../src/config/server-config.js';
import { quotaPrincipals, type TaskBody } from '../support/quota-principals.js';
import { BACKENDS, serversOnBackends } from '../support/servers-on-backends.js';

// `arbiter serve` with a file quota of 100 per principal, on both storage backends. The files are
// made by real sandboxed `@shell` commands; a workspace's entries (its folder included) and the
// artifacts stored from them all count, so 30 files in a folder cost their principal 31 + 30.
const QUOTA = 100;
const servers = serversOnBackends('arbiter-file-quota');
beforeAll(() => servers.start());
afterAll(() => servers.stop());

describe.each(BACKENDS)('the file quota of a principal (%s)', (backend) => {
  it('a turn past it stores only the room left and fails naming it; the next task is refused until sessions are deleted; another principal is unaffected', async () => {
    const { server } = await servers.serve(backend, {
      config: serverConfigSchema.parse({ limits: { filesPerPrincipal: QUOTA } }),
      // The gate only audits: what is tested is the quota, not whether a person allows `touch`.
      harness: { offlineChunkDelayMs: 0, toolGating: { mode: 'shadow' } },
    });
    expect(server.principalQuotas.files).toBe(QUOTA);
    const { keyFor, task, deleteSession } = quotaPrincipals(server, server.initialKey ?? '');
    const [heavy, light] = [await keyFor('heavy'), await keyFor('light')];
    const files = (count: number) => `@shell mkdir d && cd d && seq 1 ${count} | xargs touch`;
    const cited = (body: TaskBody) => body.output.at(-1)?.content?.[0]?.annotations?.length ?? 0;

    // Many files at once: 151 entries, over the quota when the turn ends, so nothing is stored.
    const many = await task(heavy, files(150));
    expect(many.body.status).toBe('failed');
    // Counted when the turn ends, or while it runs where the turn outlasts the quota watch's first
    // second (a loaded host): either way the error names the quota and the files held.
    expect(many.body.error).toMatchObject({
      code: expect.stringMatching(/^arbiter_(artifact_limit|quota_exceeded)$/),
      detail: { quota: 'files', limit: QUOTA },
    });
    expect(many.body.error?.message).toMatch(/(holds|held) 151 files .* over its file quota of 100/);
    expect(cited(many.body)).toBe(0);
    const refusedAtOnce = await task(heavy, '@say hello');
    expect(refusedAtOnce.status).toBe(429);
    expect(refusedAtOnce.body.error).toMatchObject({
      code: 'quota_exhausted',
      detail: { quota: 'files', limit: QUOTA, used: 151 },
    });
    expect(await deleteSession(heavy, many.body.metadata.session_id)).toBeLessThan(300);

    // 31 entries and 30 artifacts: within the quota.
    const first = await task(heavy, files(30));
    expect(first.body.status).toBe('completed');
    expect(cited(first.body)).toBe(30);
    // A second session: 61 held, 31 more entries, so room for 8 of its 30 artifacts.
    const second = await task(heavy, files(30));
    expect(second.body.status).toBe('failed');
    expect(second.body.error).toMatchObject({
      type: 'harness_error',
      code: 'arbiter_artifact_limit',
      detail: { quota: 'files', limit: QUOTA },
    });
    expect(second.body.error?.message).toMatch(/room for 8 more under its file quota of 100/);
    expect(cited(second.body)).toBe(8);

    // At the quota, the principal starts nothing more: a typed refusal naming it.
    const refused = await task(heavy, '@say hello');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      type: 'rate_limit_error',
      code: 'quota_exhausted',
      detail: { quota: 'files', limit: QUOTA, used: 100 },
    });
    expect(refused.body.error?.message).toMatch(/file quota of 100; delete sessions/);

    // Another principal's files neither count against it nor are refused.
    const other = await task(light, files(30));
    expect(other.status).toBe(200);
    expect(other.body.status).toBe('completed');

    // Deleting a session frees its workspace and its artifacts.
    expect(await deleteSession(heavy, second.body.metadata.session_id)).toBeLessThan(300);
    expect((await task(heavy, '@say room again')).body.status).toBe('completed');
  });
});
