import { describe, expect, it } from 'vitest';
import { parseOfflineDirectives } from './offline-directives.js';

describe('parseOfflineDirectives', () => {
  it('reads every directive in order, with multi-line write content', () => {
    const steps = parseOfflineDirectives(
      '@think plan it\n@say hello\n@write dir/a.txt <<<line 1\nline 2>>>\n@read dir/a.txt\n@list\n@shell ls -la\n@sleep 25\n@history\n@fail nope',
    );
    expect(steps).toEqual([
      { kind: 'think', text: 'plan it' },
      { kind: 'say', text: 'hello' },
      { kind: 'tool', name: 'write', arguments: { path: 'dir/a.txt', content: 'line 1\nline 2' } },
      { kind: 'tool', name: 'read', arguments: { path: 'dir/a.txt' } },
      { kind: 'tool', name: 'list', arguments: { path: '.' } },
      { kind: 'tool', name: 'shell', arguments: { command: 'ls -la' } },
      { kind: 'sleep', ms: 25 },
      { kind: 'history' },
      { kind: 'fail', message: 'nope' },
    ]);
  });

  it('understands the plain-English forms of the public conformance suite', () => {
    expect(parseOfflineDirectives('Reply with exactly: ok')).toEqual([{ kind: 'say', text: 'ok' }]);
    expect(parseOfflineDirectives('Create a file named out.txt containing exactly: artifact-ok')).toEqual([
      { kind: 'tool', name: 'write', arguments: { path: 'out.txt', content: 'artifact-ok' } },
      { kind: 'say', text: 'Created out.txt.' },
    ]);
    expect(parseOfflineDirectives('Count slowly from 3 to 5, one number per line.')).toEqual([
      { kind: 'say', text: '3\n4\n5' },
    ]);
  });

  it('finds nothing in free text and bounds sleeps', () => {
    expect(parseOfflineDirectives('please summarise the report')).toEqual([]);
    expect(parseOfflineDirectives('@sleep 99999999')).toEqual([{ kind: 'sleep', ms: 600_000 }]);
  });
});
