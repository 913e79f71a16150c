import { execFileSync } from 'node:child_process';

export interface ShellSandboxOptions {
  /** Let sandboxed commands reach the network. Default false. */
  readonly allowNetwork?: boolean;
}

/**
 * Wraps a shell command in bubblewrap: the whole file system read-only, the workspace the only
 * writable place (plus a private /tmp), no network unless allowed, a new PID namespace, and the
 * sandbox dies with its parent. Without `bwrap` commands run as the server's user (see docs/harnesses.md).
 */
export class ShellSandbox {
  constructor(
    private readonly bwrapPath: string,
    private readonly options: ShellSandboxOptions = {},
  ) {}

  /** The sandbox when `bwrap` is on PATH and can start a namespace here, otherwise null. */
  static detect(options: ShellSandboxOptions = {}): ShellSandbox | null {
    try {
      const found = execFileSync('/bin/sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).trim();
      if (found === '') return null;
      const sandbox = new ShellSandbox(found, options);
      // Containers often forbid user namespaces: prove it works once instead of failing every command.
      execFileSync('/bin/sh', ['-c', sandbox.wrap('true', '/')], { stdio: 'ignore', timeout: 5_000 });
      return sandbox;
    } catch {
      return null;
    }
  }

  /** The command line that runs `command` inside the sandbox with `workspace` writable. */
  wrap(command: string, workspace: string): string {
    const args = [
      this.bwrapPath,
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--bind',
      workspace,
      workspace,
      '--chdir',
      workspace,
      '--unshare-pid',
      '--die-with-parent',
      ...(this.options.allowNetwork ? [] : ['--unshare-net']),
      '/bin/sh',
      '-c',
      command,
    ];
    return `exec ${args.map(quote).join(' ')}`;
  }
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
