import type { PermissionOption } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { gatedAcpCall, permissionOption } from './acp-permission.js';

describe('ACP tool calls as the gate reads them', () => {
  it('maps each kind onto the gate vocabulary', () => {
    const base = { toolCallId: 't', title: 'T' };
    expect(
      gatedAcpCall({ ...base, kind: 'execute', rawInput: { command: 'git', args: ['push', '-f'] } }),
    ).toEqual({
      tool: 'Bash',
      arguments: { command: 'git push -f' },
    });
    expect(gatedAcpCall({ ...base, kind: 'execute', title: 'ls -la', rawInput: {} })).toEqual({
      tool: 'Bash',
      arguments: { command: 'ls -la' },
    });
    expect(
      gatedAcpCall({ ...base, kind: 'edit', locations: [{ path: '/w/a.txt' }], rawInput: { content: 'x' } }),
    ).toEqual({
      tool: 'Edit',
      arguments: { content: 'x', file_path: '/w/a.txt' },
    });
    expect(gatedAcpCall({ ...base, kind: 'read', rawInput: { file_path: '/w/b' } }).arguments.file_path).toBe(
      '/w/b',
    );
    expect(gatedAcpCall({ ...base, kind: 'delete', rawInput: { path: '/w/c d' } })).toEqual({
      tool: 'Bash',
      arguments: { command: 'rm -r -- "/w/c d"' },
    });
    expect(
      gatedAcpCall({ ...base, kind: 'move', rawInput: { path: 'a', destination: 'b' } }).arguments.command,
    ).toBe('mv -- "a" "b"');
    expect(gatedAcpCall({ ...base, kind: 'fetch', rawInput: { url: 'https://x' } }).tool).toBe('WebFetch');
    expect(gatedAcpCall({ ...base, kind: 'switch_mode' })).toEqual({
      tool: 'acp__switch_mode',
      arguments: { title: 'T' },
    });
  });

  it('answers with one-time options first and never grants on a refusal', () => {
    const options: PermissionOption[] = [
      { optionId: 'always', name: 'Always', kind: 'allow_always' },
      { optionId: 'once', name: 'Once', kind: 'allow_once' },
      { optionId: 'never', name: 'Never', kind: 'reject_always' },
    ];
    expect(permissionOption(options, true)?.optionId).toBe('once');
    expect(permissionOption(options, false)?.optionId).toBe('never');
    expect(permissionOption(options.slice(0, 2), false)).toBeUndefined();
  });
});
