import { describe, expect, it } from 'vitest';
import { deciderName, formatInstant, lateReceipt, outcomeWords, shortHash } from './team-row-format.js';
import type { TeamCall, TeamRecordRow } from './team-types.js';

function rowWith(call: TeamCall): TeamRecordRow {
  return {
    seq: 1,
    principal: { id: 'prn_a', name: 'alice' },
    received_at: '2026-11-28T10:00:00.000Z',
    outcome: 'pending',
    outcome_at: null,
    record: {
      kind: 'verdict',
      id: '00000000-0000-4000-8000-000000000000',
      time: '2026-11-28T10:00:00.000Z',
      host: 'claude-code',
      session: null,
      tool: 'Bash',
      call_key: 'a'.repeat(64),
      program: 'npm',
      call,
      project: 'shop',
      verdict: 'ASK',
      effective: 'ASK',
      rule: 3,
      decided_by: 'gate',
      reason: 'runs a package script',
      answers: null,
      pack: { name: 'tool-gate', version: '1', sha256: 'b'.repeat(64) },
      call_sha256: 'c'.repeat(64),
      team_policy_sha256: null,
      model: null,
    },
  };
}

describe('words and numbers', () => {
  it('says each outcome', () => {
    expect(outcomeWords('approved')).toBe('approved by a person');
    expect(outcomeWords('declined')).toBe('declined');
    expect(outcomeWords('none')).toBe('—');
  });

  it('formats instants, leaving unreadable text as it came', () => {
    expect(formatInstant('2026-11-28T10:00:00.000Z', 'en-GB')).toMatch(/28 Nov 2026/);
    expect(formatInstant('not a time')).toBe('not a time');
  });

  it('shortens hashes and names deciders in either shape', () => {
    expect(shortHash('0123456789abcdef'.repeat(4))).toBe('0123456789ab');
    expect(deciderName({ id: 'prn_1', name: 'ops' })).toBe('ops');
    expect(deciderName('prn_1')).toBe('prn_1');
    expect(deciderName(null)).toBe('—');
  });
});

describe('lateReceipt', () => {
  it('names the receipt of a record that arrived more than a minute after its call, and only then', () => {
    const row = rowWith({ command: 'ls', summary: 'ls' });
    expect(lateReceipt({ ...row, received_at: '2026-11-28T10:00:59.000Z' })).toBeNull();
    expect(lateReceipt({ ...row, received_at: '2026-11-28T12:30:00.000Z' })).toBe('2026-11-28T12:30:00.000Z');
    expect(lateReceipt({ ...row, received_at: 'garbled' })).toBeNull();
  });
});
