import { z } from 'zod';

export const sessionSchema = z.looseObject({
  id: z.string(),
  object: z.literal('session').optional(),
  harness_id: z.string().optional(),
  title: z.string().optional(),
  status: z.string().optional(),
  created_at: z.number().int().optional(),
  updated_at: z.number().int().optional(),
});
export type Session = z.infer<typeof sessionSchema>;

/** `next_cursor` is `null` on the last page. */
export const sessionListSchema = z.looseObject({
  sessions: z.array(sessionSchema),
  next_cursor: z.string().nullable().optional(),
});
export type SessionList = z.infer<typeof sessionListSchema>;

export const sessionTurnSchema = z.looseObject({ response_id: z.string() });
export const sessionTurnsSchema = z.looseObject({ turns: z.array(sessionTurnSchema) });
export type SessionTurn = z.infer<typeof sessionTurnSchema>;
export type SessionTurns = z.infer<typeof sessionTurnsSchema>;

export const sessionShareSchema = z.looseObject({
  session_id: z.string().optional(),
  url: z.string().optional(),
  token: z.string().optional(),
});
export type SessionShare = z.infer<typeof sessionShareSchema>;
