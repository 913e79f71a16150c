import type { UhpClientEvent, Usage } from '@arbiter/uhp';
import type { TextOutput } from '../../invocation-io.js';
import type { QuietSpinner } from './spinner.js';

/** Shows the events of one run; `close()` ends the output cleanly whatever happened. */
export interface RunRenderer {
  render(event: UhpClientEvent): void;
  note(line: string): void;
  /** Something the user must not miss (a substituted model): on stderr, never dimmed. */
  warn(line: string): void;
  close(): void;
}

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export function formatUsage(usage: Usage | null): string {
  if (usage === null) return 'tokens: not reported by the server';
  const part = (value: number | undefined, label: string) => `${value ?? '?'} ${label}`;
  return `tokens: ${part(usage.input_tokens, 'in')} · ${part(usage.output_tokens, 'out')} · ${part(usage.total_tokens, 'total')}`;
}

/** `--json`: every normalised event as one JSON line on stdout; notes go to stderr. */
export class JsonLinesRenderer implements RunRenderer {
  readonly #stdout: TextOutput;
  readonly #stderr: TextOutput;

  constructor(stdout: TextOutput, stderr: TextOutput) {
    this.#stdout = stdout;
    this.#stderr = stderr;
  }

  render(event: UhpClientEvent): void {
    this.#stdout.write(`${JSON.stringify(event)}\n`);
  }

  note(line: string): void {
    this.#stderr.write(`${line}\n`);
  }

  warn(line: string): void {
    this.#stderr.write(`warning: ${line}\n`);
  }

  close(): void {}
}

type Mode = 'start' | 'text' | 'reasoning' | 'line';

const RECONNECT_NOTES = {
  resume: 'connection dropped; resuming the stream where it broke',
  reread: 'connection dropped; following the stored response instead',
  repeat: 'connection dropped before the task was named; asking again with the same idempotency key',
} as const;

/**
 * The terminal rendering: text as it arrives, reasoning set apart (dimmed, behind a bar), each tool
 * call and its outcome on their own lines, produced files, and a closing usage line. Meta notes go to
 * stderr so `> file` captures only what the agent said.
 */
export class TerminalRenderer implements RunRenderer {
  readonly #stdout: TextOutput;
  readonly #stderr: TextOutput;
  readonly #spinner: QuietSpinner;
  readonly #colour: boolean;
  #mode: Mode = 'start';
  #textItem: string | null = null;

  constructor(stdout: TextOutput, stderr: TextOutput, spinner: QuietSpinner, colour: boolean) {
    this.#stdout = stdout;
    this.#stderr = stderr;
    this.#spinner = spinner;
    this.#colour = colour;
  }

  render(event: UhpClientEvent): void {
    this.#spinner.pause();
    switch (event.type) {
      case 'status':
        if (event.status === 'in_progress') {
          this.#meta(
            `task ${event.responseId}${event.sessionId ? ` · session ${event.sessionId}` : ''} · ${event.model}`,
          );
        }
        break;
      case 'text-delta':
        // A new assistant message starts on its own line rather than running on from the last one.
        if (this.#textItem !== null && this.#textItem !== event.itemId) this.#enter('line');
        this.#textItem = event.itemId;
        this.#enter('text');
        this.#stdout.write(event.delta);
        break;
      case 'text-snapshot':
        this.#line(this.#dim('(some events were lost; the stored text of this message follows)'));
        this.#enter('text');
        this.#stdout.write(event.text);
        break;
      case 'reasoning-delta':
        this.#enter('reasoning');
        this.#stdout.write(this.#dim(event.delta.replace(/\n/g, '\n│ ')));
        break;
      case 'tool-call':
        this.#line(`⚙ ${event.name} ${oneLine(event.arguments, 160)}`);
        break;
      case 'tool-result':
        this.#line(this.#dim(`  ↳ ${oneLine(event.output, 160) || '(no output)'}`));
        break;
      case 'file-produced':
        this.#line(`📄 ${event.file.filename} (${event.file.fileId})`);
        break;
      case 'usage':
        this.#line(this.#dim(formatUsage(event.usage)));
        break;
      case 'error':
        this.#line(`! ${event.message} (${event.code})`);
        break;
      case 'sequence-gap':
        this.#meta(
          `missed events ${event.expected}–${event.received - 1}; the stored response will fill the gap`,
        );
        break;
      case 'reconnect':
        this.#meta(RECONNECT_NOTES[event.mode]);
        break;
      case 'done': {
        const { response } = event;
        const model = response.metadata?.model_fallback
          ? ` (requested ${response.metadata.requested_model ?? '?'}, ran ${response.model}: ${response.metadata.model_fallback_reason ?? 'substituted'})`
          : '';
        const reason =
          response.status === 'failed' && response.error
            ? `: ${response.error.message} (${response.error.code})`
            : response.status === 'incomplete' && response.incomplete_details
              ? `: ${JSON.stringify(response.incomplete_details)}`
              : '';
        this.#line(`${response.status}${reason}${model}`);
        break;
      }
    }
    if (event.type !== 'done') this.#spinner.quiet('working');
  }

  note(line: string): void {
    this.#spinner.pause();
    this.#meta(line);
  }

  warn(line: string): void {
    this.#spinner.pause();
    if (this.#mode === 'text' || this.#mode === 'reasoning') {
      this.#stdout.write('\n');
      this.#mode = 'line';
    }
    this.#stderr.write(`! ${line}\n`);
  }

  close(): void {
    this.#spinner.stop();
    if (this.#mode === 'text' || this.#mode === 'reasoning') this.#stdout.write('\n');
    this.#mode = 'line';
  }

  #enter(mode: Mode): void {
    if (this.#mode === mode) return;
    if (this.#mode === 'text' || this.#mode === 'reasoning') this.#stdout.write('\n');
    if (mode === 'reasoning') this.#stdout.write(this.#dim('│ '));
    this.#mode = mode;
  }

  #line(text: string): void {
    if (this.#mode === 'text' || this.#mode === 'reasoning') this.#stdout.write('\n');
    this.#stdout.write(`${text}\n`);
    this.#mode = 'line';
  }

  #meta(text: string): void {
    if (this.#mode === 'text' || this.#mode === 'reasoning') {
      this.#stdout.write('\n');
      this.#mode = 'line';
    }
    this.#stderr.write(`${this.#dim(`· ${text}`)}\n`);
  }

  #dim(text: string): string {
    return this.#colour ? `\x1b[2m${text}\x1b[22m` : text;
  }
}
