import { describe, expect, it } from 'vitest';
import { MAX_CALL_SUMMARY, MAX_ROW_CALL, recordedCall, summarizeCall } from './call-summary.js';

describe('summarizeCall', () => {
  it('shows the command, the path or the URL a call names', () => {
    expect(summarizeCall('{"command":"ls -la","description":"list"}')).toBe('ls -la');
    expect(summarizeCall('{"command":["bash","-lc","git status"]}')).toBe('bash -lc git status');
    expect(summarizeCall('{"file_path":"notes/hello.txt","content":"Hello"}')).toBe('notes/hello.txt');
    expect(summarizeCall('{"url":"https://example.com/a"}')).toBe('https://example.com/a');
    expect(summarizeCall('{"other":1}')).toBe('{"other":1}');
    expect(summarizeCall('not json')).toBe('not json');
  });

  it('redacts secrets in what it shows, and cuts long calls', () => {
    const shown = summarizeCall(
      JSON.stringify({
        command: 'curl -H "Authorization: Bearer sk-live-abcdefghijklmnopqrstuvwxyz012345" https://x.example',
      }),
    );
    expect(shown).not.toContain('sk-live-abcdefghijklmnopqrstuvwxyz012345');
    expect(shown).toContain('curl');
    const token = summarizeCall(JSON.stringify({ command: 'echo ghp_0123456789abcdefghijABCDEFGHIJ012345' }));
    expect(token).not.toContain('ghp_0123456789abcdefghijABCDEFGHIJ012345');
    const long = summarizeCall(JSON.stringify({ command: `echo ${'a '.repeat(400)}` }));
    expect(long.length).toBe(MAX_CALL_SUMMARY);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('recordedCall', () => {
  it('shows the command, else the path, else the URL, else the summary, as recorded', () => {
    expect(recordedCall({ command: 'npm run build', summary: 'Bash: npm run build' })).toEqual({
      text: 'npm run build',
      kind: 'command',
      cut: false,
    });
    expect(recordedCall({ path: 'src/a.ts', summary: 'Edit src/a.ts' }).kind).toBe('path');
    expect(recordedCall({ url: 'https://x.example/', summary: 'fetch' }).text).toBe('https://x.example/');
    expect(recordedCall({ summary: 'mcp__db__query' })).toEqual({
      text: 'mcp__db__query',
      kind: 'summary',
      cut: false,
    });
  });

  it('cuts a long call and says so', () => {
    const shown = recordedCall({ command: 'x'.repeat(MAX_ROW_CALL + 5), summary: 's' });
    expect(shown.text.length).toBe(MAX_ROW_CALL);
    expect(shown.text.endsWith('…')).toBe(true);
    expect(shown.cut).toBe(true);
  });

  it('leaves a call the hook redacted as it came, and redacts one that reached the server unredacted', () => {
    const redacted = 'git push https://x-access-token:[REDACTED:github-token]@github.com/acme/shop.git';
    expect(recordedCall({ command: redacted, summary: 'Bash' }).text).toBe(redacted);
    const token = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
    expect(recordedCall({ url: `https://x.example/?t=${token}`, summary: 'fetch' }).text).not.toContain(
      token,
    );
  });
});
