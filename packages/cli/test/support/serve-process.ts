import { spawn } from 'node:child_process';
import { ARBITER_BIN } from './run-arbiter.js';

export interface ServeProcess {
  /** `http://host:port` from the line `Arbiter listening on …`. */
  readonly url: string;
  /** Everything written to standard error so far (the banner, a first key). */
  stderr(): string;
  /** SIGTERM, then the exit status. */
  stop(): Promise<number | null>;
}

/**
 * `arbiter serve --port 0 <args>` as a real subprocess, resolved once it prints the line scripts
 * wait for; rejected with its output if it exits first.
 */
export function startServeProcess(args: readonly string[], env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [ARBITER_BIN, 'serve', '--port', '0', '--log-level', 'warn', ...args],
    {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const url = /Arbiter listening on (http:\/\/\S+)\n/.exec(stdout)?.[1];
      if (url)
        resolve({
          url,
          stderr: () => stderr,
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
    });
    exited.then((code) => reject(new Error(`arbiter serve exited with ${code}:\n${stdout}${stderr}`)));
  });
}
