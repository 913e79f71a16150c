import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectRegisteredCode, principalCalls } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

// The artifact limits, small so each is reached with a few `@write` lines (no program runs).
const LIMITS = { maxFilesPerTurn: 3, maxBytesPerTurn: 10, maxFilesPerSession: 5, maxWorkspaceEntries: 12 };
const key = TEST_KEYS.alice;
let server: UhpTestServer;
const { post, get } = principalCalls(() => server.baseUrl, key);
beforeAll(async () => {
  server = await startUhpTestServer({ artifactLimits: LIMITS });
});
afterAll(() => server.close());

const writes = (names: readonly string[], content = 'x') =>
  names.map((name) => `@write ${name} <<<${content}>>>`).join('\n');

interface Listed {
  files: { id: string; filename: string }[];
  next_cursor: string | null;
}

function citedNames(body: { output: { content?: { annotations?: { filename: string }[] }[] }[] }) {
  return body.output
    .flatMap((item) => item.content ?? [])
    .flatMap((part) => part.annotations ?? [])
    .map((annotation) => annotation.filename);
}

describe('artifact limits', () => {
  it('a turn past its file limit keeps and cites the first files, lists them in pages, and fails naming the limit', async () => {
    const turn = (await post({ input: writes(['a', 'b', 'c', 'd', 'e']) })).json;
    expect(turn.status).toBe('failed');
    expectRegisteredCode(turn.error.code);
    expect(turn.error).toMatchObject({ type: 'harness_error', code: 'arbiter_artifact_limit' });
    expect(turn.error.message).toMatch(/changed 5 files, more than the 3 artifacts one turn may store/);
    expect(citedNames(turn)).toEqual(['a', 'b', 'c']);
    const session = turn.metadata.session_id as string;

    const all = (await get(`/v1/sessions/${session}/files`)).json as Listed;
    expect(all.files.map((file) => file.filename)).toEqual(['a', 'b', 'c']);
    expect(all.next_cursor).toBeNull();
    const first = (await get(`/v1/sessions/${session}/files?limit=2`)).json as Listed;
    expect(first.files.map((file) => file.filename)).toEqual(['a', 'b']);
    expect(first.next_cursor).toBe(first.files[1]!.id);
    const second = (await get(`/v1/sessions/${session}/files?limit=2&cursor=${first.next_cursor}`))
      .json as Listed;
    expect(second.files.map((file) => file.filename)).toEqual(['c']);
    expect(second.next_cursor).toBeNull();

    for (const query of ['limit=0', 'limit=1001', 'cursor=file_x', `limit=2&cursor=${session}`]) {
      const refused = await call(server.baseUrl, `/v1/sessions/${session}/files?${query}`, { key });
      expect(refused.status, query).toBe(400);
      expect(refused.json.error.code, query).toBe('invalid_input');
    }
  });

  it('a session keeps at most its artifacts over all turns; the next turn stores what fits', async () => {
    const first = (await post({ input: writes(['p', 'q', 'r']) })).json;
    expect(first.status).toBe('completed');
    const second = (await post({ input: writes(['s', 't', 'u']), previous_response_id: first.id })).json;
    expect(second.status).toBe('failed');
    expect(second.error.message).toMatch(
      /the session has room for 2 more artifacts \(at most 5 per session\)/,
    );
    expect(citedNames(second)).toEqual(['s', 't']);
  });

  it('a file larger than the bytes a turn may still store is not stored', async () => {
    const turn = (
      await post({ input: `${writes(['a-small'], 'abcdef')}\n${writes(['b-large'], 'abcdefghij')}` })
    ).json;
    expect(turn.status).toBe('failed');
    expect(turn.error.message).toMatch(/larger than the 10 bytes one turn may store/);
    expect(citedNames(turn)).toEqual(['a-small']);
  });

  it('a workspace past the entries a turn walks is said to be, and what was walked is kept', async () => {
    const names = Array.from({ length: 14 }, (_, index) => `f${String(index).padStart(2, '0')}`);
    const first = (await post({ input: writes(names.slice(0, 2)) })).json;
    expect(first.status).toBe('completed');
    const turn = (await post({ input: writes(names.slice(2)), previous_response_id: first.id })).json;
    expect(turn.status).toBe('failed');
    expect(turn.error.message).toMatch(/more than 12 entries/);
    // Names in byte order: f00–f11 are walked (the reserved folder counts too), and f02–f04 are the
    // first three new files.
    expect(citedNames(turn)).toEqual(['f02', 'f03', 'f04']);
  });
});
