import type { StreamEvent, UhpResponse } from '@arbiter/uhp/wire';

type MutableItem = Record<string, unknown> & {
  content?: Record<string, unknown>[];
  summary?: Record<string, unknown>[];
  arguments?: string;
};

/**
 * Folds stream events into the response's `output`. The task runner feeds it every event it appends
 * and crash recovery replays the log through it, so the blocking result, the stream and a recovered
 * response are the same fold of the same events.
 */
export class ResponseAssembler {
  readonly output: MutableItem[] = [];

  apply(event: StreamEvent): void {
    const item = typeof event.output_index === 'number' ? this.output[event.output_index] : undefined;
    switch (event.type) {
      case 'response.output_item.added':
      case 'response.output_item.done':
        if (typeof event.output_index === 'number' && event.item)
          this.output[event.output_index] = structuredClone(event.item) as MutableItem;
        break;
      case 'response.content_part.added':
        if (item && typeof event.content_index === 'number' && event.part) {
          item.content ??= [];
          item.content[event.content_index] = structuredClone(event.part);
        }
        break;
      case 'response.output_text.delta': {
        const part = item?.content?.[event.content_index ?? 0];
        if (part) part.text = `${part.text ?? ''}${event.delta ?? ''}`;
        break;
      }
      case 'response.output_text.annotation.added': {
        const part = item?.content?.[event.content_index ?? 0];
        if (part && event.annotation) {
          const annotations = (part.annotations ?? []) as unknown[];
          annotations[event.annotation_index ?? annotations.length] = structuredClone(event.annotation);
          part.annotations = annotations;
        }
        break;
      }
      case 'response.reasoning_summary_part.added':
        if (item && event.part) {
          item.summary ??= [];
          item.summary[event.summary_index ?? 0] = structuredClone(event.part);
        }
        break;
      case 'response.reasoning_summary_text.delta': {
        const part = item?.summary?.[event.summary_index ?? 0];
        if (part) part.text = `${part.text ?? ''}${event.delta ?? ''}`;
        break;
      }
      case 'response.function_call_arguments.delta':
        if (item) item.arguments = `${item.arguments ?? ''}${event.delta ?? ''}`;
        break;
      default:
        break;
    }
  }

  snapshot(): UhpResponse['output'] {
    return structuredClone(this.output) as UhpResponse['output'];
  }
}
