import type { UhpResponse } from '@arbiter/uhp';

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
