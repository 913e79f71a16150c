/**
 * How one `decide` call stops early: its budget expires or its caller aborts. The AbortSignal a
 * transport may read is made on first read, not per call: on Node 20 an AbortController costs
 * about a fifth of a whole in-process tool-gate verdict (bench/gate-speed.mjs), and an engine that
 * answers synchronously never reads it. A signal read after the call stopped is born aborted.
 */
export class CallCancellation {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #resolveStopped: (() => void) | undefined;
  #stopped: Promise<void> | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Settles when the call is aborted; never rejects. */
  get stopped(): Promise<void> {
    this.#stopped ??= this.#aborted
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          this.#resolveStopped = resolve;
        });
    return this.#stopped;
  }

  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#resolveStopped?.();
  }
}
