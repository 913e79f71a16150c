import type { TextOutput } from '../../invocation-io.js';

const SAVE_CURSOR = '\x1b7';
const RESTORE_CURSOR = '\x1b8';
const CLEAR_TO_END_OF_LINE = '\x1b[K';
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A spinner on stderr that appears only after the agent has been quiet for a moment. It is drawn
 * where the cursor is (after saving the cursor position) and erased by restoring that position and
 * clearing to the end of the line, so a half-written line of streamed text survives it. Call `pause()`
 * before writing anything to the terminal and `quiet()` afterwards to restart the quiet timer. Inert
 * when stderr is not a terminal.
 */
export class QuietSpinner {
  readonly #stream: TextOutput;
  readonly #enabled: boolean;
  readonly #delayMs: number;
  #label = 'working';
  #timer: NodeJS.Timeout | null = null;
  #frame = 0;
  #visible = false;

  constructor(stream: TextOutput, options: { enabled: boolean; delayMs?: number }) {
    this.#stream = stream;
    this.#enabled = options.enabled && stream.isTTY === true;
    this.#delayMs = options.delayMs ?? 400;
  }

  /** Starts (or restarts) waiting; the spinner shows if nothing else is written for a while. */
  quiet(label?: string): void {
    if (!this.#enabled) return;
    if (label !== undefined) this.#label = label;
    this.#clearTimer();
    this.#timer = setTimeout(() => this.#tick(), this.#delayMs);
    this.#timer.unref();
  }

  /** Hides the spinner so the caller can write. */
  pause(): void {
    this.#clearTimer();
    if (this.#visible) {
      this.#stream.write(`${RESTORE_CURSOR}${CLEAR_TO_END_OF_LINE}`);
      this.#visible = false;
    }
  }

  stop(): void {
    this.pause();
  }

  #tick(): void {
    const frame = `${FRAMES[this.#frame++ % FRAMES.length]} ${this.#label}…`;
    this.#stream.write(
      this.#visible ? `${RESTORE_CURSOR}${CLEAR_TO_END_OF_LINE}${frame}` : `${SAVE_CURSOR}${frame}`,
    );
    this.#visible = true;
    this.#timer = setTimeout(() => this.#tick(), 100);
    this.#timer.unref();
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
