import { beforeAll, describe, expect, it } from 'vitest';
import { analyseToolCallSync } from '../analyse-tool-call.js';
import { loadBashParser } from '../bash-parser.js';
import { OPTION_SPECS } from '../vocabulary/program-options.js';
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

// The service CLIs read their options with the one option parser (issue 27, item 4): an option's
// value is not a word of the command path. Before, the first word not starting with `-` was the
// command, so a global option's value hid the verb and a value spelled like a verb was one.
describe('service CLIs read options by their specification', () => {
  const analyse = (command: string) =>
    analyseToolCallSync({ tool: 'Bash', arguments: { command }, grant: ['Bash'], task: 'Fix the build.' });
  const codes = (command: string) => analyse(command).findings.map((finding) => finding.code);

  beforeAll(async () => {
    await loadBashParser();
  });

  it.each([
    ['aws --profile prod s3 rm s3://backups/db --recursive', 'cli.aws.s3-rm.recursive'],
    ['rclone --config ops.conf sync ./site remote:www', 'cli.rclone.sync-deletes-at-destination'],
    ['systemctl -H db1 reboot', 'cli.systemctl.reboot'],
    ['systemctl --host=db1 poweroff', 'cli.systemctl.poweroff'],
    ['gh -R acme/app pr merge 12', 'cli.gh.pr-merge'],
    // `-XDELETE` and `--method=DELETE` were missed: the method was read only as the next word.
    ['gh api -XDELETE repos/acme/app', 'cli.gh.api-delete'],
    ['gh api --method=DELETE repos/acme/app', 'cli.gh.api-delete'],
    ['gh api -X DELETE repos/acme/app', 'cli.gh.api-delete'],
    ['gh auth refresh --scopes=delete_repo', 'cli.gh.auth-scopes:delete_repo'],
  ])('%j reads as %s', (command, code) => {
    expect(codes(command)).toContain(code);
  });

  it.each(['kubectl -n dev get pods -o wide', 'gh issue list --label delete', 'gh pr list --search delete'])(
    '%j is a read, and allowed',
    (command) => {
      expect(analyse(command).answers.disposition.choice).toBe('allow');
    },
  );

  it('reads the command path past option values, and stops at --', () => {
    expect(judgeCliVerbs(['-n', 'delete', 'get', 'pods'], true, OPTION_SPECS.kubectl)).toMatchObject({
      kind: 'read',
      verb: 'get',
    });
    expect(judgeCliVerbs(['exec', 'api', '--', 'rm'], true, OPTION_SPECS.kubectl).verb).toBe('exec');
    // Without a specification no option takes a value, as before.
    expect(judgeCliVerbs(['-n', 'delete', 'get']).kind).toBe('destructive');
  });
});
