import type { ProcessSandbox, SandboxRunResult } from '../sandbox/process-sandbox.js';
import type { Workspace } from './workspace.js';

export interface WorkspaceToolLimits {
  /** Wall-clock limit of one shell command. */
  readonly shellTimeoutMs: number;
  /** Bytes of stdout+stderr kept from one command, and bytes returned by one read. */
  readonly outputCapBytes: number;
}

export const DEFAULT_WORKSPACE_TOOL_LIMITS: WorkspaceToolLimits = {
  shellTimeoutMs: 30_000,
  outputCapBytes: 64 * 1024,
};

/**
 * The agent's built-in file and shell tools, confined to one workspace. File tools resolve paths
 * beneath the workspace; programs start only through the server's process sandbox, with the
 * workspace as their only writable place, a wall-clock limit and an output cap.
 */
export class WorkspaceTools {
  /**
   * The end of the last program started; the next waits for it. A turn's programs run one at a
   * time even when a model asks for several tools at once, so a task's memory is bounded by one
   * sandbox's processes × memory limit (docs/security.md, "Memory"), not by how many calls it makes.
   */
  private lastRun: Promise<unknown> = Promise.resolve();

  constructor(
    readonly workspace: Workspace,
    readonly sandbox: ProcessSandbox,
    readonly limits: WorkspaceToolLimits = DEFAULT_WORKSPACE_TOOL_LIMITS,
  ) {}

  /** The file's text, cut at the output cap; only the bytes kept are read. */
  async read(relativePath: string): Promise<string> {
    const { bytes, size } = await this.workspace.readFile(relativePath, this.limits.outputCapBytes);
    const capped = bytes.toString('utf8');
    return size > this.limits.outputCapBytes
      ? `${capped}\n[truncated at ${this.limits.outputCapBytes} bytes]`
      : capped;
  }

  write(relativePath: string, content: string): number {
    this.workspace.writeFile(relativePath, content);
    return Buffer.byteLength(content);
  }

  list(relativePath = '.'): string[] {
    return this.workspace
      .listDirectory(relativePath)
      .filter((entry) => !(relativePath === '.' && entry.name === '.arbiter'))
      .map((entry) => (entry.directory ? `${entry.name}/` : entry.name))
      .sort();
  }

  /** Runs `command` with /bin/sh in the sandbox, in the workspace; see ProcessSandbox for what it may do. */
  shell(command: string, signal: AbortSignal): Promise<SandboxRunResult> {
    return this.run(['/bin/sh', '-c', command], signal);
  }

  /** Runs a program in the sandbox, in the workspace, under the wall-clock limit and output cap. */
  run(argv: readonly string[], signal: AbortSignal): Promise<SandboxRunResult> {
    const started = this.lastRun.then(() =>
      this.sandbox.run(
        { argv, workspace: this.workspace.root, purpose: 'command' },
        { signal, timeoutMs: this.limits.shellTimeoutMs, outputCapBytes: this.limits.outputCapBytes },
      ),
    );
    // A failed program does not stop the next one from starting.
    this.lastRun = started.catch(() => undefined);
    return started;
  }
}
