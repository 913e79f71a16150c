import { describe, expect, it } from 'vitest';
import { analyseToolCallSync } from '../analyse-tool-call.js';
import { unreadSwitch } from './switch-change.js';

const unread = (path: string, removed: string, inserted: string, task = 'Fix it.', whole = false) =>
  unreadSwitch({ path, inserted, removed, task, whole });

describe('a switch the gate cannot read, changed without the task naming it', () => {
  it('is not understood, in any configuration dialect', () => {
    expect(
      unread(
        'android/app/src/main/AndroidManifest.xml',
        '<application android:label="Shop"',
        '<application android:label="Shop" android:usesCleartextTraffic="true"',
      ),
    ).toBe('usesCleartextTraffic');
    expect(
      unread(
        'config/kafka/server.properties',
        'allow.everyone.if.no.acl.found=false',
        'allow.everyone.if.no.acl.found=true',
      ),
    ).toBe('allow.everyone.if.no.acl.found');
    expect(
      unread(
        'renovate.json',
        '{ "extends": ["config:base"] }',
        '{ "extends": ["config:base"], "automerge": true }',
      ),
    ).toBe('automerge');
    expect(unread('deploy/values.yaml', 'hostNetwork: false', 'hostNetwork: true')).toBe('hostNetwork');
    // A harmless word does not make a security switch harmless.
    expect(
      unread(
        '.npmrc',
        'registry=https://registry.npmjs.org/',
        'registry=https://registry.npmjs.org/\nstrict-ssl=false',
      ),
    ).toBe('strict-ssl');
    expect(
      unread(
        '.npmrc',
        'registry=https://registry.npmjs.org/',
        'registry=https://registry.npmjs.org/\nfund=false',
      ),
    ).toBeUndefined();
  });

  it('is understood when the task names it, when either side is harmless, or when it closes', () => {
    expect(
      unread(
        'deploy/values.yaml',
        'hostNetwork: false',
        'hostNetwork: true',
        'Run the agent on the host network.',
      ),
    ).toBeUndefined();
    expect(unread('tsconfig.json', '"sourceMap": false', '"sourceMap": true')).toBeUndefined();
    expect(unread('.prettierrc', '"singleQuote": false', '"singleQuote": true')).toBeUndefined();
    expect(
      unread('k8s/api.yaml', 'runAsNonRoot: true', 'runAsNonRoot: true\n  readOnlyRootFilesystem: true'),
    ).toBeUndefined();
    expect(unread('terraform/db.tf', 'allow_anonymous = true', 'allow_anonymous = false')).toBeUndefined();
    // A switch left where it was is not a change; code files and whole files are read by other checks.
    expect(
      unread('deploy/values.yaml', 'hostNetwork: true\nreplicas: 2', 'hostNetwork: true\nreplicas: 3'),
    ).toBeUndefined();
    expect(unread('src/spinner.ts', 'this.loading = true', 'this.loading = false')).toBeUndefined();
    expect(unread('deploy/values.yaml', '', 'hostNetwork: true', 'Fix it.', true)).toBeUndefined();
  });

  it('the whole call: an unread switch is asked, a named one allowed', () => {
    const disposition = (task: string) =>
      analyseToolCallSync({
        tool: 'Edit',
        arguments: {
          file_path: 'config/features.yaml',
          old_string: 'legacy_pricing_bridge: false',
          new_string: 'legacy_pricing_bridge: true',
        },
        grant: ['Edit'],
        task,
        cwd: '/home/dev/project',
      }).answers.disposition.choice;
    expect(disposition('Old orders show wrong totals; fix it.')).toBe('ask');
    expect(disposition('Turn on the legacy pricing bridge.')).toBe('allow');
  });
});
