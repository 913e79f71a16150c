import { describe, expect, it } from 'vitest';
import { analyseToolCallSync } from '../analyse-tool-call.js';
import { judgeExclusionList } from './exclusion-lists.js';

const codes = (path: string, inserted: string, removed: string) =>
  judgeExclusionList(path, inserted, removed).map((finding) => finding.code);

describe('exclusion lists: what an ignore file keeps from leaving the machine', () => {
  it('an entry for secrets or history dropped from any publisher list is asked', () => {
    expect(codes('.gitignore', 'node_modules/', '.env\n.env.*\nnode_modules/')).toEqual([
      'content.exclusion-removed:.env',
    ]);
    expect(codes('.dockerignore', 'node_modules', '.env\n.git\nnode_modules')).toHaveLength(1);
    expect(codes('.npmignore', 'src/', 'src/\n*.pem')).toEqual(['content.exclusion-removed:*.pem']);
    expect(codes('infra/.gitignore', '*.log', '*.log\nterraform.tfstate*')).toHaveLength(1);
  });

  it('re-including a secret-bearing path with `!` is asked', () => {
    expect(codes('.gitignore', '.env*\n!.env.production', '.env*')).toEqual([
      'content.exclusion-removed:!.env.production',
    ]);
  });

  it('build output and caches are routine, and so is adding an entry or re-including an example', () => {
    expect(codes('.gitignore', 'node_modules/\ndist/\ncoverage/', 'node_modules/\ndist/')).toEqual([]);
    expect(codes('.gitignore', 'node_modules/', 'node_modules/\ndist/')).toEqual([]);
    expect(codes('.gitignore', '.env*\n!.env.example', '.env*')).toEqual([]);
    // A tool's view-only list keeps nothing from leaving: its entries are not protections.
    expect(codes('.prettierignore', 'dist', 'dist\n.env')).toEqual([]);
    expect(codes('src/app.ts', 'node_modules/', '.env\nnode_modules/')).toEqual([]);
  });

  it('the whole call: the exposure is asked, the tidy-up allowed', () => {
    const disposition = (old_string: string, new_string: string) =>
      analyseToolCallSync({
        tool: 'Edit',
        arguments: { file_path: '.gitignore', old_string, new_string },
        grant: ['Edit'],
        task: 'Clean up the gitignore.',
        cwd: '/home/dev/project',
      }).answers.disposition.choice;
    expect(disposition('.env\nnode_modules/', 'node_modules/')).not.toBe('allow');
    expect(disposition('node_modules/\nnode_modules/', 'node_modules/')).toBe('allow');
  });
});
