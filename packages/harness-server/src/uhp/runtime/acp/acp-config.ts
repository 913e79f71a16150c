import { z } from 'zod';
import { agentSandboxSchema } from '../../sandbox/sandbox-config.js';

/** The `acp` section of the configuration file: the operator's ACP agents (docs/harnesses.md). */
export const acpConfigSchema = z.strictObject({
  agents: z
    .array(
      z.strictObject({
        id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, dot, dash, underscore'),
        label: z.string().max(200).optional(),
        command: z.string().min(1),
        args: z.array(z.string()).optional(),
        env: z.array(z.string()).optional(),
        credentialEnv: z.array(z.string()).optional(),
        sandbox: agentSandboxSchema.optional(),
      }),
    )
    .optional(),
  /** Offer the well-known presets (Gemini CLI, Claude Code, Codex, OpenCode, Goose). Default true. */
  presets: z.boolean().optional(),
});
