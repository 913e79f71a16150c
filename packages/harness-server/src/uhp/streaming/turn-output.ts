import type { ContainerFileCitation, StreamEvent } from '@arbiter/uhp/wire';
import { LoopSlice } from '../event-loop-slices.js';
import { newObjectId } from '../object-id.js';
import type { NewEvent } from './event-log.js';
import type { ResponseAssembler } from './response-assembler.js';

type ItemStatus = 'completed' | 'incomplete';

/** An artifact to cite: where it lives and how to download it. */
export interface CitedFile {
  readonly container_id: string;
  readonly file_id: string;
  readonly filename: string;
  readonly download_url: string;
}

/**
 * Writes one turn's output as UHP stream events, keeping the open message and reasoning items so
 * every `added` gets its `done` (also when the turn is cut short by a cancel, a budget or an error).
 */
export class TurnOutput {
  private message: { id: string; index: number; text: string; annotations: ContainerFileCitation[] } | null =
    null;
  private reasoning: { id: string; index: number; text: string } | null = null;
  private readonly calls = new Map<string, { id: string; index: number; name: string; arguments: string }>();

  constructor(
    private readonly emit: (event: NewEvent) => StreamEvent,
    private readonly assembler: ResponseAssembler,
  ) {}

  private get nextIndex(): number {
    return this.assembler.output.length;
  }

  text(delta: string): void {
    this.closeReasoning('completed');
    if (!this.message) {
      this.message = { id: newObjectId('msg'), index: this.nextIndex, text: '', annotations: [] };
      this.emit({
        type: 'response.output_item.added',
        output_index: this.message.index,
        item: { id: this.message.id, type: 'message', role: 'assistant', status: 'in_progress', content: [] },
      });
      this.emit({
        type: 'response.content_part.added',
        item_id: this.message.id,
        output_index: this.message.index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
    }
    this.message.text += delta;
    this.emit({
      type: 'response.output_text.delta',
      item_id: this.message.id,
      output_index: this.message.index,
      content_index: 0,
      delta,
    });
  }

  reasoningText(delta: string): void {
    if (this.message) this.closeMessage('completed');
    if (!this.reasoning) {
      this.reasoning = { id: newObjectId('rs'), index: this.nextIndex, text: '' };
      this.emit({
        type: 'response.output_item.added',
        output_index: this.reasoning.index,
        item: { id: this.reasoning.id, type: 'reasoning', status: 'in_progress', summary: [] },
      });
      this.emit({
        type: 'response.reasoning_summary_part.added',
        item_id: this.reasoning.id,
        output_index: this.reasoning.index,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
    }
    this.reasoning.text += delta;
    this.emit({
      type: 'response.reasoning_summary_text.delta',
      item_id: this.reasoning.id,
      output_index: this.reasoning.index,
      summary_index: 0,
      delta,
    });
  }

  toolCall(callId: string, name: string, args: string): void {
    this.closeOpen('completed');
    const call = { id: newObjectId('fc'), index: this.nextIndex, name, arguments: args };
    this.calls.set(callId, call);
    const item = {
      id: call.id,
      type: 'function_call',
      status: 'in_progress',
      call_id: callId,
      name,
      arguments: '',
    };
    this.emit({ type: 'response.output_item.added', output_index: call.index, item });
    this.emit({
      type: 'response.function_call_arguments.delta',
      item_id: call.id,
      output_index: call.index,
      delta: args,
    });
    this.emit({
      type: 'response.function_call_arguments.done',
      item_id: call.id,
      output_index: call.index,
      arguments: args,
    });
    this.emit({
      type: 'response.output_item.done',
      output_index: call.index,
      item: { ...item, status: 'completed', arguments: args },
    });
  }

  toolResult(callId: string, output: string): void {
    this.closeOpen('completed');
    const index = this.nextIndex;
    const item = {
      id: newObjectId('fco'),
      type: 'function_call_output',
      status: 'completed',
      call_id: callId,
      output,
    };
    this.emit({
      type: 'response.output_item.added',
      output_index: index,
      item: { ...item, status: 'in_progress' },
    });
    this.emit({ type: 'response.output_item.done', output_index: index, item });
  }

  /** Cites artifacts on the assistant message: a closing line names each file, annotated by span. */
  async cite(files: readonly CitedFile[]): Promise<void> {
    if (files.length === 0) return;
    this.text(this.message && this.message.text.length > 0 ? '\n\nFiles: ' : 'Files: ');
    // Two events per file, for up to the turn's file limit: appended in slices of the event loop.
    const slice = new LoopSlice();
    for (const [position, file] of files.entries()) {
      await slice.pause();
      const message = this.message!;
      const start = message.text.length;
      this.text(position === 0 ? file.filename : `, ${file.filename}`);
      const offset = position === 0 ? 0 : 2;
      const annotation: ContainerFileCitation = {
        type: 'container_file_citation',
        ...file,
        start_index: start + offset,
        end_index: message.text.length,
      };
      message.annotations.push(annotation);
      this.emit({
        type: 'response.output_text.annotation.added',
        item_id: message.id,
        output_index: message.index,
        content_index: 0,
        annotation_index: message.annotations.length - 1,
        annotation,
      });
    }
  }

  closeOpen(status: ItemStatus): void {
    this.closeReasoning(status);
    this.closeMessage(status);
  }

  private closeMessage(status: ItemStatus): void {
    const message = this.message;
    if (!message) return;
    this.message = null;
    const part = { type: 'output_text', text: message.text, annotations: message.annotations };
    const location = { item_id: message.id, output_index: message.index, content_index: 0 };
    this.emit({ type: 'response.output_text.done', ...location, text: message.text });
    this.emit({ type: 'response.content_part.done', ...location, part });
    this.emit({
      type: 'response.output_item.done',
      output_index: message.index,
      item: { id: message.id, type: 'message', role: 'assistant', status, content: [part] },
    });
  }

  private closeReasoning(status: ItemStatus): void {
    const reasoning = this.reasoning;
    if (!reasoning) return;
    this.reasoning = null;
    const part = { type: 'summary_text', text: reasoning.text };
    this.emit({
      type: 'response.reasoning_summary_part.done',
      item_id: reasoning.id,
      output_index: reasoning.index,
      summary_index: 0,
      part,
    });
    this.emit({
      type: 'response.output_item.done',
      output_index: reasoning.index,
      item: { id: reasoning.id, type: 'reasoning', status, summary: [part] },
    });
  }
}
