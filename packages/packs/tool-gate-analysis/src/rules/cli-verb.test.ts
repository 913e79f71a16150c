import { describe, expect, it } from 'vitest';
import { classifyVerb } from './cli-verb.js';
import { judgeCliVerbs } from './cli-verb-judgement.js';

describe('CLI verbs', () => {
  it.each([
    ['delete', 'destructive'],
    ['delete-secret', 'destructive'],
    ['doDelete', 'destructive'],
    ['delete_user', 'destructive'],
    ['rb', 'destructive'],
    ['update-secret', 'overwrite'],
    ['create', 'additive'],
    ['list_queues', 'read'],
    ['get', 'read'],
    ['frobnicate', undefined],
  ])('%s is %s', (word, kind) => {
    expect(classifyVerb(word)).toBe(kind);
  });

  it('finds the action in a command path', () => {
    expect(judgeCliVerbs(['restore', 'get']).kind).toBe('read');
    expect(judgeCliVerbs(['backup', 'delete', 'daily']).kind).toBe('destructive');
    expect(judgeCliVerbs(['-s', 'http://ci/', 'get-job', 'deploy-prod']).kind).toBe('read');
    expect(judgeCliVerbs(['--bootstrap-server', 'x:9092', '--delete', '--topic', 't']).kind).toBe(
      'destructive',
    );
    expect(judgeCliVerbs(['sync', '/a', 'remote:b', '--dry-run'])).toMatchObject({
      kind: 'overwrite',
      dryRun: true,
    });
    expect(judgeCliVerbs(['s3', 'sync', '/a', 's3://b', '--delete']).kind).toBe('destructive');
  });
});
