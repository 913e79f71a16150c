import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverConfigSchema } from '../../src/config/server-config.js';
import { quotaPrincipals } from '../support/quota-principals.js';
import { BACKENDS, serversOnBackends } from '../support/servers-on-backends.js';

// `arbiter serve` with a disk quota of 1 MiB per principal, on both storage backends. The bytes are
// written by real sandboxed `@shell` commands; a workspace's file and its artifact copy both count,
// so a 400,000-byte file costs its principal 800,000 bytes.
const QUOTA = 1024 * 1024;
const FILE = 400_000;
const servers = serversOnBackends('arbiter-disk-quota');
beforeAll(() => servers.start());
afterAll(() => servers.stop());

describe.each(BACKENDS)('the disk quota of a principal (%s)', (backend) => {
  it('a turn past it stores nothing more and fails naming it; the next task is refused until sessions are deleted; another principal is unaffected', async () => {
    const { server } = await servers.serve(backend, {
      config: serverConfigSchema.parse({ limits: { diskBytesPerPrincipal: QUOTA } }),
      // The gate only audits: what is tested is the quota, not whether a person allows `head`.
      harness: { offlineChunkDelayMs: 0, toolGating: { mode: 'shadow' } },
    });
    const { keyFor, task, deleteSession } = quotaPrincipals(server, server.initialKey ?? '');
    const [heavy, light] = [await keyFor('heavy'), await keyFor('light')];
    const write = (name: string) => `@shell head -c ${FILE} /dev/zero > ${name}`;

    // 800,000 of 1,048,576 bytes: within the quota.
    const first = await task(heavy, write('first.bin'));
    expect(first.body.status).toBe('completed');
    // A second session's file takes the principal past the quota when its turn ends.
    const second = await task(heavy, write('second.bin'));
    expect(second.body.status).toBe('failed');
    // Counted when the turn ends (arbiter_artifact_limit), or, on a host slow enough that the turn
    // outlasts the quota watch's first second, while it runs (arbiter_quota_exceeded): either way
    // the error names the quota and the bytes held.
    expect(second.body.error).toMatchObject({
      type: 'harness_error',
      code: expect.stringMatching(/^arbiter_(artifact_limit|quota_exceeded)$/),
      detail: { quota: 'disk_bytes', limit: QUOTA },
    });
    expect(second.body.error?.message).toMatch(
      /(holds|held) 1200000 bytes (during the turn )?\(its workspaces and stored files\), over its disk quota of 1048576 bytes/,
    );
    expect(second.body.error?.message).toMatch(/deleting sessions/);

    // Over the quota, the principal starts nothing more: a typed refusal, before anything is stored.
    const refused = await task(heavy, '@say hello');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      type: 'rate_limit_error',
      code: 'quota_exhausted',
      detail: { quota: 'disk_bytes', limit: QUOTA, used: 1_200_000 },
    });
    expect(refused.body.error?.message).toMatch(/delete sessions \(DELETE \/v1\/sessions\/\{id\}\)/);

    // Another principal's work neither counts against it nor is refused.
    const other = await task(light, write('mine.bin'));
    expect(other.status).toBe(200);
    expect(other.body.status).toBe('completed');

    // Deleting a session frees its workspace and its artifacts.
    expect(await deleteSession(heavy, second.body.metadata.session_id)).toBeLessThan(300);
    expect((await task(heavy, '@say room again')).body.status).toBe('completed');
  });
  it('a command writing past it during the turn is stopped within seconds, not at its time limit, with a typed error naming it', async () => {
    const { server } = await servers.serve(backend, {
      config: serverConfigSchema.parse({ limits: { diskBytesPerPrincipal: QUOTA } }),
      harness: { offlineChunkDelayMs: 0, toolGating: { mode: 'shadow' } },
    });
    const { keyFor, task } = quotaPrincipals(server, server.initialKey ?? '');
    const key = await keyFor('writer');
    // 200 KB every tenth of a second for up to 25 s: 50 MB if nothing stopped it, each file well
    // under the per-file limit (RLIMIT_FSIZE), so only the quota watch can stop it.
    const started = performance.now();
    const { body } = await task(
      key,
      '@shell for i in $(seq 1 250); do head -c 200000 /dev/zero > part$i; sleep 0.1; done',
    );
    const seconds = (performance.now() - started) / 1000;
    expect(body.status).toBe('failed');
    expect(body.error).toMatchObject({
      type: 'harness_error',
      code: 'arbiter_quota_exceeded',
      detail: { quota: 'disk_bytes', limit: QUOTA },
    });
    expect(body.error?.message).toMatch(
      /over its disk quota of 1048576 bytes, so the turn's programs were stopped/,
    );
    // Generous for a loaded host: the watch measures every second; the command alone takes 25 s.
    expect(seconds).toBeLessThan(20);
    // What the workspace held when the program was stopped: past the quota, far below 50 MB.
    const used = Number(body.error?.detail?.used);
    expect(used).toBeGreaterThan(QUOTA);
    expect(used).toBeLessThan(20 * QUOTA);
    // The principal is over its quota now, so its next task is refused.
    const next = await task(key, '@say hello');
    expect(next.status).toBe(429);
  });
});
