import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** POSIX single-quoting, so arguments reach the program in the terminal unchanged. */
const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * A real terminal: a detached tmux session on a private socket (never the user's tmux server),
 * driven by keystrokes and read back from the screen. The command's exit status is printed as
 * `[exit N]` and the pane kept open so the final screen can be read.
 */
export class TmuxSession {
  // An explicit socket path (-S) rather than a name (-L), so close() can remove the file it leaves.
  readonly #socket = join(tmpdir(), `arbiter-tmux-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  readonly #name = 'arbiter';

  static async assertAvailable(): Promise<void> {
    await run('tmux', ['-V']).catch(() => {
      throw new Error(
        'tmux is required for the terminal tests (apt-get install -y tmux); .ci/run installs it.',
      );
    });
  }

  async start(
    argv: readonly string[],
    env: Record<string, string>,
    size = { width: 120, height: 40 },
  ): Promise<void> {
    const assignments = Object.entries(env).map(([name, value]) => `${name}=${quote(value)}`);
    // The shell traps SIGINT (a trap, unlike an ignore, is not inherited) so Ctrl-C reaches only the
    // program under test and the shell lives on to print its exit status.
    const command = `trap : INT; env ${assignments.join(' ')} ${argv.map(quote).join(' ')}; echo "[exit $?]"; sleep 600`;
    await run('tmux', [
      '-S',
      this.#socket,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      this.#name,
      '-x',
      String(size.width),
      '-y',
      String(size.height),
      `sh -c ${quote(command)}`,
    ]);
  }

  async screen(): Promise<string> {
    const { stdout } = await run('tmux', [
      '-S',
      this.#socket,
      'capture-pane',
      '-p',
      '-J',
      '-t',
      this.#name,
      '-S',
      '-500',
    ]);
    return stdout;
  }

  async press(...keys: string[]): Promise<void> {
    await run('tmux', ['-S', this.#socket, 'send-keys', '-t', this.#name, ...keys]);
  }

  /** Polls the screen until `pattern` shows; returns that screen. Fails with the last screen on timeout. */
  async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = await this.screen();
      if (pattern.test(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    throw new Error(`Timed out waiting for ${pattern} on the terminal; it shows:\n${screen}`);
  }

  async close(): Promise<void> {
    await run('tmux', ['-S', this.#socket, 'kill-server']).catch(() => {
      // Already gone: nothing to stop.
    });
    await rm(this.#socket, { force: true });
  }
}
