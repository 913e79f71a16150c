import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readCachedTeamPolicy,
  teamPolicyCachePath,
  teamPolicyProblem,
  writeCachedTeamPolicy,
} from './team-policy-cache.js';
import { teamPolicySha256 } from './team-policy-hash.js';
import type { TeamPolicy } from './team-report.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'team-policy-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const rules = { version: 1 as const, allow: ['Bash(npm run build:*)'], report_cwd: 'project' as const };
const policy: TeamPolicy = {
  ...rules,
  sha256: teamPolicySha256(rules),
  updated_at: '2026-11-28T07:00:00.000Z',
};

describe('the cached team policy', () => {
  it('is read back as written', () => {
    expect(readCachedTeamPolicy(directory)).toBeNull();
    writeCachedTeamPolicy(join(directory, 'gate-reports'), policy);
    expect(readCachedTeamPolicy(join(directory, 'gate-reports'))).toEqual(policy);
  });

  it('is written 0600, replacing the previous one whole, with no temporary file left', () => {
    const cache = join(directory, 'gate-reports');
    writeCachedTeamPolicy(cache, policy);
    writeCachedTeamPolicy(cache, { ...policy, updated_at: '2026-11-28T08:00:00.000Z' });
    expect(statSync(teamPolicyCachePath(cache)).mode & 0o777).toBe(0o600);
    expect(readCachedTeamPolicy(cache)?.updated_at).toBe('2026-11-28T08:00:00.000Z');
    expect(readdirSync(cache)).toEqual([teamPolicyCachePath(cache).slice(cache.length + 1)]);
  });

  it('hashes the rules, not their spelling: key order does not change the hash', () => {
    expect(teamPolicySha256({ report_cwd: 'project', allow: ['Bash(npm run build:*)'], version: 1 })).toBe(
      policy.sha256,
    );
    expect(teamPolicySha256({ ...rules, allow: ['Bash(npm run build)'] })).not.toBe(policy.sha256);
  });

  it('is ignored when its hash does not match its rules, or it is not a policy', () => {
    const widened = { ...policy, allow: ['Bash'] };
    expect(teamPolicyProblem(widened)).toMatch(/is not the hash of its rules/);
    writeFileSync(teamPolicyCachePath(directory), JSON.stringify(widened));
    expect(readCachedTeamPolicy(directory)).toBeNull();
    writeFileSync(teamPolicyCachePath(directory), '{"version": 2}');
    expect(readCachedTeamPolicy(directory)).toBeNull();
    writeFileSync(teamPolicyCachePath(directory), 'not json');
    expect(readCachedTeamPolicy(directory)).toBeNull();
    expect(() => writeCachedTeamPolicy(directory, widened)).toThrow(/refusing to cache/);
  });
});
