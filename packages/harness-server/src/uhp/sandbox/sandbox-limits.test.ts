import { describe, expect, it } from 'vitest';
import { DEFAULT_COMMAND_LIMITS } from './sandbox-config.js';
import { limitedProgram, limitsMismatch } from './sandbox-limits.js';

const shell = { kind: 'shell', shell: '/bin/sh' } as const;
const line =
  'ulimit -t 60 && ulimit -v 2097152 && ulimit -p 128 && ulimit -f 524288 && ulimit -n 1024 && ulimit -c 0 || exit 126';

describe('limitedProgram', () => {
  it('puts the limits on the first line of a shell command, so the script keeps its line numbers', () => {
    const script = 'cat <<EOF\nline two\nEOF\nexit 3';
    expect(limitedProgram(shell, DEFAULT_COMMAND_LIMITS, ['/bin/sh', '-c', script, 'name', 'arg'])).toEqual([
      '/bin/sh',
      '-c',
      `${line}; ${script}`,
      'name',
      'arg',
    ]);
  });

  it('starts any other program by exec from the shell that set the limits, its argv untouched', () => {
    const argv = ['python3', '-c', 'print(1)', '$HOME; rm -rf /'];
    expect(limitedProgram(shell, DEFAULT_COMMAND_LIMITS, argv)).toEqual([
      '/bin/sh',
      '-c',
      `${line}; exec "$@"`,
      '/bin/sh',
      ...argv,
    ]);
    // A shell started another way (a login shell, `sh -e -c`) is a program like any other.
    expect(limitedProgram(shell, DEFAULT_COMMAND_LIMITS, ['/bin/sh', '-e', '-c', 'x']).slice(4)).toEqual([
      '/bin/sh',
      '-e',
      '-c',
      'x',
    ]);
  });

  it('leaves out a limit that is null, but never core dumps', () => {
    const [, , script] = limitedProgram(
      shell,
      { ...DEFAULT_COMMAND_LIMITS, cpuSeconds: null, openFiles: null },
      ['/bin/sh', '-c', 'true'],
    );
    expect(script).toBe(
      'ulimit -v 2097152 && ulimit -p 128 && ulimit -f 524288 && ulimit -c 0 || exit 126; true',
    );
  });
});

describe('limitsMismatch', () => {
  const procLimits = (cpu: string, files: string) =>
    [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      `Max cpu time              ${cpu}                   seconds   `,
      `Max file size             ${files}            bytes     `,
      'Max processes             128                  128                  processes ',
      'Max open files            1024                 1024                 files     ',
      'Max address space         2147483648           2147483648           bytes     ',
      'Max core file size        0                    0                    bytes     ',
    ].join('\n');

  it('accepts the limits when each is in force with soft = hard', () => {
    expect(limitsMismatch(procLimits('60 60', '268435456 268435456'), DEFAULT_COMMAND_LIMITS)).toBeNull();
  });

  it('names each limit whose hard value is not the one set, or that is missing', () => {
    expect(limitsMismatch(procLimits('60 unlimited', '268435456 268435456'), DEFAULT_COMMAND_LIMITS)).toBe(
      'max cpu time is 60/unlimited, not 60',
    );
    expect(
      limitsMismatch(procLimits('60 60', '268435456 268435456').replace(/^Max processes.*$/m, ''), {
        ...DEFAULT_COMMAND_LIMITS,
      }),
    ).toBe('max processes is ?/?, not 128');
  });
});
