import { describe, expect, it } from 'vitest';
import { MAX_CALL_SUMMARY, summarizeCall } from './call-summary.js';

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
