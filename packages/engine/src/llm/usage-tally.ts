import type { Usage } from '@arbiter/decision';
import type { ChatCompletion } from './chat-completion-wire.js';

/**
 * Sums the server's own `usage` numbers over every completion of a request. One completion without a
 * count makes the total unknown (`null`): a partial sum would understate what the server billed.
 */
export class UsageTally {
  private input: number | null = 0;
  private output: number | null = 0;

  add(completion: ChatCompletion): void {
    const usage = completion.usage;
    this.input = sum(this.input, usage?.prompt_tokens);
    this.output = sum(this.output, usage?.completion_tokens);
  }

  toUsage(): Usage {
    return { input_tokens: this.input, output_tokens: this.output };
  }
}

function sum(total: number | null, count: number | null | undefined): number | null {
  return total === null || count === null || count === undefined ? null : total + count;
}
