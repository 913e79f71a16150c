const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A one-line spinner on stderr that appears only after the agent has been quiet for a moment, so
 * streaming text is never interleaved with it. Call `pause()` before writing anything to the
 * terminal and `quiet()` afterwards to restart the quiet timer. Inert when stderr is not a terminal.
 */
export class QuietSpinner {
  readonly #stream: NodeJS.WriteStream;
  readonly #enabled: boolean;
  readonly #delayMs: number;
  #label = 'working';
  #timer: NodeJS.Timeout | null = null;
  #frame = 0;
  #visible = false;

  constructor(stream: NodeJS.WriteStream, options: { enabled: boolean; delayMs?: number }) {
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
      this.#stream.write('\r\x1b[K');
      this.#visible = false;
    }
  }

  stop(): void {
    this.pause();
  }

  #tick(): void {
    this.#visible = true;
    this.#stream.write(`\r\x1b[K${FRAMES[this.#frame++ % FRAMES.length]} ${this.#label}…`);
    this.#timer = setTimeout(() => this.#tick(), 100);
    this.#timer.unref();
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
