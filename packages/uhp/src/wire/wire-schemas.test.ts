import { describe, expect, it } from 'vitest';
import { discoverySchema } from './discovery.js';
import { uhpErrorEnvelopeSchema } from './error.js';
import { isTerminalEventType, streamEventSchema } from './event.js';
import { harnessCreateSchema, harnessSchema } from './harness.js';
import { CREATE_RESPONSE_REQUEST_KEYS, createResponseRequestSchema } from './request.js';
import { responseSchema } from './response.js';

const response = {
  id: 'resp_1',
  object: 'response',
  created_at: 1_763_800_000,
  status: 'completed',
  error: null,
  incomplete_details: null,
  previous_response_id: null,
  model: 'arbiter-offline',
  output: [
    { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }] },
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [
        {
          type: 'output_text',
          text: 'Files: a.txt',
          annotations: [
            { type: 'container_file_citation', container_id: 'cntr_1', file_id: 'file_1', filename: 'a.txt' },
          ],
        },
      ],
    },
    { type: 'some_future_item', payload: 1 },
  ],
  usage: null,
  metadata: { session_id: 'hsess_1', vendor_field: true },
};

describe('UHP wire schemas', () => {
  it('accept a response with known and unknown output items and keep unknown members', () => {
    const parsed = responseSchema.parse(response);
    expect(parsed.output).toHaveLength(3);
    expect(parsed.metadata?.vendor_field).toBe(true);
  });

  it('refuse what the specification forbids', () => {
    expect(responseSchema.safeParse({ ...response, id: 'r_1' }).success).toBe(false);
    expect(responseSchema.safeParse({ ...response, status: 'done' }).success).toBe(false);
    expect(responseSchema.safeParse({ ...response, usage: { input_tokens: -1 } }).success).toBe(false);
    expect(
      discoverySchema.safeParse({
        object: 'uhp.discovery',
        protocol: 'uhp',
        versions: [],
        default_version: 'x',
        conformance_class: 'full',
        capabilities: {},
      }).success,
    ).toBe(false);
    expect(harnessSchema.safeParse({ id: 'h_1', name: 'x', base: 'agent' }).success).toBe(false);
    expect(
      uhpErrorEnvelopeSchema.safeParse({ error: { type: 'oops', code: 'x', message: 'y' } }).success,
    ).toBe(false);
  });

  it('type events and know the terminal ones', () => {
    const event = streamEventSchema.parse({ type: 'response.completed', sequence_number: 3, response });
    expect(event.response?.status).toBe('completed');
    expect(isTerminalEventType('response.failed')).toBe(true);
    expect(isTerminalEventType('error')).toBe(false);
    expect(streamEventSchema.safeParse({ type: 'x', sequence_number: -1 }).success).toBe(false);
  });

  it('list the request members a server reports as ignored when others arrive', () => {
    const request = createResponseRequestSchema.parse({ input: 'hi', temperature: 1 });
    expect(Object.keys(request).filter((key) => !CREATE_RESPONSE_REQUEST_KEYS.includes(key))).toEqual([
      'temperature',
    ]);
    expect(
      harnessCreateSchema.parse({ base: 'agent', skills: [{ name: 's', content: '# S' }] }).skills,
    ).toHaveLength(1);
  });
});
