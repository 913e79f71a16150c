import type { UhpResponse } from '@arbiter/uhp/wire';
import type { ToolExchange } from './runtime/harness-runtime.js';

/** The user's text of a stored input: every string message and `input_text` part, in order. */
export function inputTextOf(items: readonly unknown[]): string {
  return items
    .flatMap((item) => {
      const content = (item as { content?: unknown }).content;
      if (typeof content === 'string') return [content];
      if (!Array.isArray(content)) return [];
      return content
        .filter((part): part is { type: string; text: unknown } => part?.type === 'input_text')
        .map((part) => String(part.text));
    })
    .join('\n');
}

/** The assistant's text of a response: every `output_text` of its message items, in order. */
export function outputTextOf(output: UhpResponse['output']): string {
  return output
    .flatMap((item) =>
      item.type === 'message' && 'content' in item && Array.isArray(item.content) ? item.content : [],
    )
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('\n');
}

/** Longest tool result of an earlier turn handed back to a model; the workspace holds the rest. */
const MAX_HISTORY_OUTPUT_CHARS = 4_000;

/** The tool calls of a response with their results, in call order. */
export function toolExchangesOf(output: UhpResponse['output']): ToolExchange[] {
  const results = new Map<string, string>();
  for (const item of output)
    if (item.type === 'function_call_output' && 'call_id' in item && typeof item.output === 'string')
      results.set(String(item.call_id), item.output);
  return output.flatMap((item) => {
    if (item.type !== 'function_call' || !('call_id' in item)) return [];
    const callId = String(item.call_id);
    const result = results.get(callId);
    return [
      {
        callId,
        name: String(item.name),
        arguments: String(item.arguments),
        output:
          result === undefined
            ? null
            : result.length > MAX_HISTORY_OUTPUT_CHARS
              ? `${result.slice(0, MAX_HISTORY_OUTPUT_CHARS)}\n[truncated]`
              : result,
      },
    ];
  });
}
