import { z } from 'zod';

/** One file of a skill folder: text in `content`, binary in `content_b64` (byte-exact). */
export const skillFileSchema = z.looseObject({
  path: z.string(),
  content: z.string().optional(),
  content_b64: z.string().optional(),
});
export type SkillFile = z.infer<typeof skillFileSchema>;

/** A skill is a folder; `content` is shorthand for a bundle holding only SKILL.md. */
export const skillSchema = z.looseObject({
  name: z.string(),
  enabled: z.boolean().optional(),
  files: z.array(skillFileSchema).optional(),
  content: z.string().optional(),
  blob: z.string().optional(),
});
export type Skill = z.infer<typeof skillSchema>;

export const mcpServerSchema = z.looseObject({
  name: z.string(),
  url: z.string(),
  transport: z.enum(['http', 'sse']).optional(),
  enabled: z.boolean().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  auth: z.string().optional(),
});
export type McpServer = z.infer<typeof mcpServerSchema>;

/** A configured harness: camelCase on the wire, as the specification names it. */
export const harnessSchema = z.looseObject({
  id: z.string().regex(/^chrn_/),
  object: z.literal('harness').optional(),
  name: z.string(),
  base: z.string(),
  baseLabel: z.string().optional(),
  defaultModel: z.string().optional(),
  systemPrompt: z.string().optional(),
  mcpServers: z.array(mcpServerSchema).optional(),
  skills: z.array(skillSchema).optional(),
  disabledTools: z.array(z.string()).optional(),
  maxStep: z.number().int().nullable().optional(),
  timeoutSeconds: z.number().int().nullable().optional(),
  createdAt: z.number().int().optional(),
});
export type Harness = z.infer<typeof harnessSchema>;

export const harnessListSchema = z.looseObject({ harnesses: z.array(harnessSchema) });
export type HarnessList = z.infer<typeof harnessListSchema>;

/** `POST /v1/harnesses` (and the body of `PUT`): snake_case, unlike the harness object. */
export const harnessCreateSchema = z.looseObject({
  name: z.string().optional(),
  base: z.string(),
  default_model: z.string().optional(),
  system_prompt: z.string().optional(),
  mcp_servers: z.array(mcpServerSchema).optional(),
  skills: z.array(skillSchema).optional(),
  disabled_tools: z.array(z.string()).optional(),
  max_step: z.number().int().nullable().optional(),
  timeout_seconds: z.number().int().nullable().optional(),
});
export type HarnessCreate = z.infer<typeof harnessCreateSchema>;

/** `PUT /v1/harnesses/{id}`: replaces the mutable configuration; `base` may be omitted. */
export const harnessUpdateSchema = harnessCreateSchema.extend({ base: z.string().optional() });
export type HarnessUpdate = z.infer<typeof harnessUpdateSchema>;

export const skillFileListSchema = z.looseObject({ files: z.array(skillFileSchema) });
export type SkillFileList = z.infer<typeof skillFileListSchema>;
