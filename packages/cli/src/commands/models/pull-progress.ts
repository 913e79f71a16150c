import type { PullEvent } from '@arbiter/engine/models';
import { invocationStderr, type TextOutput } from '../../invocation-io.js';

/**
 * Shows a pull's progress on stderr: one line redrawn in place on a terminal, plain lines (each
 * file's start, every 25 %, its verification) otherwise, so logs of CI and `npm start` stay short.
 */
export function pullProgressRenderer(stream: TextOutput = invocationStderr()): (event: PullEvent) => void {
  const tty = stream.isTTY === true;
  let lastQuarter = -1;
  let lastDraw = 0;
  let currentFile = '';
  return (event) => {
    switch (event.type) {
      case 'resolved':
        stream.write(
          `Pulling ${event.repo}@${event.revision.slice(0, 12)} (${event.files.length} files, licence ${event.licence ?? 'not stated'})\n`,
        );
        return;
      case 'progress': {
        if (event.file !== currentFile) {
          currentFile = event.file;
          lastQuarter = -1;
          if (!tty) {
            const resumed =
              event.resumedFromBytes > 0 ? `, resuming at ${formatBytes(event.resumedFromBytes)}` : '';
            stream.write(
              `  ${event.file}: ${event.totalBytes === null ? 'size unknown' : formatBytes(event.totalBytes)}${resumed}\n`,
            );
          }
        }
        const fraction = event.totalBytes ? event.receivedBytes / event.totalBytes : null;
        if (tty) {
          const now = Date.now();
          if (now - lastDraw < 100 && fraction !== 1) return;
          lastDraw = now;
          stream.write(
            `\r\u001b[2K  ${event.file}  ${bar(fraction)} ${formatBytes(event.receivedBytes)}${event.totalBytes ? ` / ${formatBytes(event.totalBytes)}` : ''}`,
          );
        } else if (fraction !== null) {
          const quarter = Math.floor(fraction * 4);
          if (quarter > lastQuarter && quarter > 0 && quarter < 4) {
            lastQuarter = quarter;
            stream.write(`  ${event.file}: ${quarter * 25}%\n`);
          }
        }
        return;
      }
      case 'verified':
        if (tty) stream.write('\r\u001b[2K');
        stream.write(
          `  ${event.file}: ${formatBytes(event.bytes)}, sha256 ${event.sha256.slice(0, 16)}… verified\n`,
        );
        currentFile = '';
        return;
    }
  };
}

function bar(fraction: number | null): string {
  if (fraction === null) return '[ … ]';
  const width = 24;
  const filled = Math.round(Math.min(1, fraction) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%`;
}

/**
 * Sizes in decimal units (kB, MB, GB: powers of 1,000), as the README and the guides give model
 * sizes and as the Hub shows them, so "about 90 MB" in the docs is "87 MB" here, not "83 MiB".
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(value < 9.95 ? 1 : 0)} ${units[unit]}`;
}
