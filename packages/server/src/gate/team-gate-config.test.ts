import { describe, expect, it } from 'vitest';
import { serverConfigSchema } from '../config/server-config.js';
import { DEFAULT_TEAM_GATE_CONFIG, teamGateConfigSchema } from './team-gate-config.js';

describe('toolGating.team', () => {
  it('defaults to three approvals, an hour, and the project name', () => {
    expect(DEFAULT_TEAM_GATE_CONFIG).toEqual({
      suggestAfter: 3,
      declineAfterSeconds: 3600,
      reportCwd: 'project',
    });
    expect(teamGateConfigSchema.parse({ reportCwd: 'full' })).toEqual({
      ...DEFAULT_TEAM_GATE_CONFIG,
      reportCwd: 'full',
    });
  });

  it('is a section of the server configuration beside the harness gate settings', () => {
    const config = serverConfigSchema.parse({
      toolGating: { mode: 'shadow', team: { suggestAfter: 5, declineAfterSeconds: 600 } },
    });
    expect(config.toolGating?.team).toEqual({
      suggestAfter: 5,
      declineAfterSeconds: 600,
      reportCwd: 'project',
    });
    expect(config.toolGating?.mode).toBe('shadow');
  });

  it.each([
    [{ suggestAfter: 0 }, 'suggestAfter'],
    [{ suggestAfter: 2.5 }, 'suggestAfter'],
    [{ declineAfterSeconds: 59 }, 'declineAfterSeconds'],
    [{ declineAfterSeconds: 30 * 24 * 3600 + 1 }, 'declineAfterSeconds'],
    [{ reportCwd: 'home' }, 'reportCwd'],
    [{ suggestafter: 3 }, ''],
  ])('refuses %j', (team, field) => {
    const parsed = serverConfigSchema.safeParse({ toolGating: { team } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['toolGating', 'team', ...(field ? [field] : [])]);
  });
});
