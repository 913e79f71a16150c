import { z } from 'zod';

/** The state of one proposed tool call, as the tool-gate questions read it. */
export const toolGateStateSchema = z.object({
  tool: z.string().min(1, 'tool must name the tool').max(500),
  arguments: z.record(z.string(), z.unknown()),
  grant: z.array(z.string().max(2_000)).max(1_000).default([]),
  task: z.string().max(20_000).default(''),
  cwd: z.string().max(4_096).optional(),
  policy: z.unknown().optional(),
  last_diff: z.string().max(200_000).optional(),
});

export type ToolGateState = z.infer<typeof toolGateStateSchema>;
export type ToolGateStateInput = z.input<typeof toolGateStateSchema>;
