import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DEFAULT_USER_RANGE } from '@arbiter/harness-server';
import { expect } from 'vitest';

/** What an attacker's shell aims at: the host around its sandbox. */
export interface EscapeTargets {
  /** The server's data directory (SQLite database, other sessions, the audit log). */
  readonly dataDir: string;
  /** A file in another principal's workspace, and the secret it holds. */
  readonly victimFile: string;
  readonly victimSecret: string;
  /** An HTTP server on the host's loopback, and how many requests reached it. */
  readonly loopbackUrl: string;
  loopbackHits(): number;
  /** Digits unique to this run, so host-side checks find only what this attack left. */
  readonly marker: string;
}

/** One escape: a shell command line and the check that it achieved nothing. */
export interface EscapeAttempt {
  readonly name: string;
  command(targets: EscapeTargets): string;
  verify(output: string, targets: EscapeTargets): Promise<void>;
}

/** A loopback HTTP server counting the requests that reach it. */
export async function startLoopbackTarget(): Promise<{
  url: string;
  hits(): number;
  close(): Promise<void>;
}> {
  let hits = 0;
  const server = http.createServer((_request, response) => {
    hits++;
    response.end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/exfiltrate`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Host processes whose command line contains `text`. */
export function hostProcessesWith(text: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) found.push(Number(entry));
    } catch {
      // Ended while we looked.
    }
  }
  return found;
}

/** Host processes running under a sandbox id (the range a root server leases from). */
export function sandboxProcesses(): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const uid = Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
      if (uid >= DEFAULT_USER_RANGE.first && uid < DEFAULT_USER_RANGE.first + DEFAULT_USER_RANGE.count)
        found.push(Number(entry));
    } catch {
      // Ended while we looked.
    }
  }
  return found;
}

/** Polls until `condition` holds (processes take a moment to be reaped), failing after `ms`. */
export async function eventually(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('still true after the deadline');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The escapes every runtime is attacked with. Each command tries several routes to the same prize, so
 * a rule that blocks one spelling does not pass the test; each check looks at the host, not only at
 * what the command printed. The server's environment is attacked in served-environ.test.ts, against a
 * real `arbiter serve` process whose environment holds the secrets from its start.
 */
const outsideFiles = ({ dataDir, marker }: EscapeTargets) => [
  `/var/tmp/escape-${marker}`,
  `${dataDir}/escape-${marker}`,
  `/tmp/escape-${marker}`,
];

export const ESCAPE_ATTEMPTS: readonly EscapeAttempt[] = [
  {
    name: 'write outside the workspace',
    command: (t) =>
      outsideFiles(t)
        .map((file) => `echo pwned > ${file}`)
        .join('; '),
    async verify(_output, t) {
      for (const file of outsideFiles(t)) expect(fs.existsSync(file), file).toBe(false);
    },
  },
  {
    name: "read another principal's workspace",
    command: (t) =>
      `cat ${t.victimFile}; cat ../../*/workspace/*.txt; ls -R ${t.dataDir}/uhp/sessions; grep -rs ${t.victimSecret} / --exclude-dir=proc --exclude-dir=sys --exclude-dir=usr`,
    async verify(output, t) {
      expect(output).not.toContain(t.victimSecret);
    },
  },
  {
    name: 'read the data directory and its SQLite database',
    command: (t) =>
      `ls -la ${t.dataDir}; cat ${t.dataDir}/arbiter.db* ${t.dataDir}/uhp/gate-audit.jsonl; find / \\( -path /proc -o -path /sys -o -path /usr \\) -prune -o -name 'arbiter.db*' -print`,
    async verify(output, t) {
      expect(fs.existsSync(path.join(t.dataDir, 'arbiter.db'))).toBe(true);
      expect(output).not.toContain('SQLite format 3');
      expect(output).not.toMatch(/arbiter\.db(?!\*)/);
      expect(output).not.toContain('"verdict"');
    },
  },
  {
    name: 'leave a background process behind',
    command: ({ marker }) =>
      `sleep ${marker}.5 & nohup sleep ${marker}.5 >/dev/null 2>&1 & (setsid sleep ${marker}.5 &) ; sleep 0.2; for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline; echo; done | grep -c "^sleep ${marker}"`,
    async verify(output, { marker }) {
      // They did start (the count, from inside), and none is left on the host after the command.
      expect(Number(/^(\d+)$/m.exec(output)?.[1])).toBeGreaterThanOrEqual(2);
      await eventually(() => hostProcessesWith(`${marker}.5`).length === 0);
    },
  },
  {
    name: 'reach the network (a loopback HTTP server of the host)',
    command: ({ loopbackUrl }) =>
      `node -e "fetch('${loopbackUrl}').then(r => console.log('STATUS', r.status), e => console.log('NETERR', e.cause?.code))"; wget -q -T 2 -O - ${loopbackUrl}; curl -s -m 2 ${loopbackUrl}`,
    async verify(output, t) {
      expect(output).toContain('NETERR');
      expect(t.loopbackHits()).toBe(0);
      expect(output).not.toContain('reached');
    },
  },
  {
    name: 'run as root on the host',
    command: () => 'id -u; grep -E "^(Uid|CapEff|CapBnd|NoNewPrivs)" /proc/self/status',
    async verify(output) {
      // Root, or any capability kept, would be an escape.
      expect(output).toMatch(/^Uid:\s+[1-9]\d*\s/m);
      expect(output).not.toMatch(/^0$/m);
      expect(output).toMatch(/^CapEff:\s+0+$/m);
      expect(output).toMatch(/^CapBnd:\s+0+$/m);
      expect(output).toMatch(/^NoNewPrivs:\s+1$/m);
    },
  },
];

/** A fork bomb: the sandbox's process limit must hold it, and nothing of it may outlive the command. */
export const FORK_BOMB = 'b(){ b|b& }; b; sleep 2; echo bomb-done';
