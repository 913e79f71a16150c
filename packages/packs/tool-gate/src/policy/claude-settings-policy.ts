import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { readHostSettingsFile } from '../hosts/host-settings-file.js';
import type { StaticPolicyRules } from './static-policy.js';

const rulesSchema = z.array(z.string()).optional();
const settingsSchema = z.object({
  permissions: z.object({ allow: rulesSchema, ask: rulesSchema, deny: rulesSchema }).partial().optional(),
});

/**
 * Reads `permissions.allow|ask|deny` from a Claude Code settings file so users keep the rules
 * they already wrote. A missing file is an empty policy; a file that is not valid is an error.
 */
export async function readClaudeSettingsPolicy(settingsPath: string): Promise<StaticPolicyRules> {
  const parsed = settingsSchema.safeParse(await readHostSettingsFile(settingsPath));
  if (!parsed.success) throw new TypeError(`${settingsPath}: ${z.prettifyError(parsed.error)}`);
  return parsed.data.permissions ?? {};
}

/** A policy file for `arbiter gate --policy`: either `{allow, ask, deny}` or a settings file with `permissions`. */
export async function readPolicyFile(path: string): Promise<StaticPolicyRules> {
  const text = await readFile(path, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TypeError(`policy file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const direct = z
    .object({ allow: rulesSchema, ask: rulesSchema, deny: rulesSchema })
    .strict()
    .safeParse(json);
  if (direct.success) return direct.data;
  const settings = settingsSchema.safeParse(json);
  if (settings.success && settings.data.permissions !== undefined) return settings.data.permissions;
  throw new TypeError(
    `policy file ${path} must hold {"allow": [...], "ask": [...], "deny": [...]} or a settings file with "permissions"`,
  );
}
