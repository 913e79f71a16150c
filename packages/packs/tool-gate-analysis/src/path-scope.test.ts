import { describe, expect, it } from 'vitest';
import { classifyPath } from './path-scope.js';

describe('classifyPath', () => {
  it.each([
    ['/tmp/build', 'temp'],
    ['/var/tmp/cache', 'temp'],
    ['$TMPDIR/x', 'temp'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell path, not a template
    ['${TMPDIR:-/tmp}/x', 'temp'],
    ['/tmp', 'system'],
    ['/tmp/../etc', 'system'],
    ['$TMPDIR/../etc', 'system'],
    ['src/app.ts', 'workspace'],
    ['./build', 'workspace'],
    ['.', 'workspace-all'],
    ['*', 'workspace-all'],
    ['.*', 'workspace-all'],
    ['~', 'home'],
    ['~/Documents', 'home'],
    ['$HOME/.config', 'home'],
    ['/home/someone/x', 'home'],
    ['/Users/someone/x', 'home'],
    ['../other', 'home'],
    ['$UNKNOWN/x', 'unknown'],
    ['/', 'system'],
    ['/etc/passwd', 'system'],
    ['/dev/null', 'device-null'],
  ])('%s is %s', (path, scope) => {
    expect(classifyPath(path).scope).toBe(scope);
  });

  it('uses cwd for absolute paths inside the workspace', () => {
    expect(classifyPath('/work/project/src/a.ts', '/work/project')).toMatchObject({
      scope: 'workspace',
      normalised: '$WORKSPACE/src/a.ts',
    });
    expect(classifyPath('/work/project', '/work/project').scope).toBe('workspace-all');
    expect(classifyPath('/work/project/../other', '/work/project').scope).toBe('system');
  });
});
