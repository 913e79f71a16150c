/** One step the offline model performs, in task-text order. */
export type OfflineStep =
  | { readonly kind: 'say'; readonly text: string }
  | { readonly kind: 'think'; readonly text: string }
  | {
      readonly kind: 'tool';
      readonly name: 'write' | 'read' | 'list' | 'shell';
      readonly arguments: Record<string, string>;
    }
  | { readonly kind: 'sleep'; readonly ms: number }
  | { readonly kind: 'fail'; readonly message: string }
  | { readonly kind: 'history' };

const MAX_COUNT = 10_000;
const MAX_SLEEP_MS = 600_000;

/**
 * Reads the directives of the offline model out of task text (documented in docs/uhp-server.md):
 * `@say`, `@think`, `@write path <<<content>>>`, `@read`, `@list`, `@shell`, `@sleep ms`, `@fail`,
 * `@history`, plus three plain-English forms the public conformance suite uses ("Reply with exactly: X",
 * "Create a file named N containing exactly: C", "Count … from A to B").
 */
export function parseOfflineDirectives(text: string): OfflineStep[] {
  const steps: OfflineStep[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? '').trim();
    const write = /^@write\s+(\S+)\s+<<<([\s\S]*)$/.exec(line);
    if (write) {
      // The content runs until the first `>>>`, possibly several lines further down.
      let content = write[2] ?? '';
      while (!content.includes('>>>') && index + 1 < lines.length) content += `\n${lines[++index] ?? ''}`;
      const end = content.indexOf('>>>');
      steps.push({
        kind: 'tool',
        name: 'write',
        arguments: { path: write[1] ?? '', content: end >= 0 ? content.slice(0, end) : content },
      });
      continue;
    }
    const directive = /^@(say|think|read|list|shell|sleep|fail|history)\b\s?(.*)$/.exec(line);
    if (directive) {
      const argument = directive[2] ?? '';
      switch (directive[1]) {
        case 'say':
          steps.push({ kind: 'say', text: argument });
          break;
        case 'think':
          steps.push({ kind: 'think', text: argument });
          break;
        case 'read':
          steps.push({ kind: 'tool', name: 'read', arguments: { path: argument.trim() } });
          break;
        case 'list':
          steps.push({ kind: 'tool', name: 'list', arguments: { path: argument.trim() || '.' } });
          break;
        case 'shell':
          steps.push({ kind: 'tool', name: 'shell', arguments: { command: argument } });
          break;
        case 'sleep':
          steps.push({
            kind: 'sleep',
            ms: Math.min(MAX_SLEEP_MS, Math.max(0, Number.parseInt(argument, 10) || 0)),
          });
          break;
        case 'fail':
          steps.push({ kind: 'fail', message: argument || 'The task asked the offline model to fail.' });
          break;
        default:
          steps.push({ kind: 'history' });
      }
      continue;
    }
    const createFile =
      /create a file named\s+["'`]?([^\s"'`]+)["'`]?\s+containing(?: exactly)?:\s?(.*)$/i.exec(line);
    if (createFile) {
      steps.push({
        kind: 'tool',
        name: 'write',
        arguments: { path: createFile[1] ?? '', content: createFile[2] ?? '' },
      });
      steps.push({ kind: 'say', text: `Created ${createFile[1]}.` });
      continue;
    }
    const reply = /reply with exactly:\s?(.*)$/i.exec(line);
    if (reply) {
      steps.push({ kind: 'say', text: reply[1] ?? '' });
      continue;
    }
    const count = /\bcount\b.*?\bfrom\s+(-?\d+)\s+to\s+(-?\d+)/i.exec(line);
    if (count) {
      const from = Number(count[1]);
      const to = Math.min(Number(count[2]), from + MAX_COUNT);
      const numbers: string[] = [];
      for (let n = from; n <= to; n++) numbers.push(String(n));
      steps.push({ kind: 'say', text: numbers.join('\n') });
    }
  }
  return steps;
}
