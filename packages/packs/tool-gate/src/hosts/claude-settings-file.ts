import { readFile } from 'node:fs/promises';

/**
 * Reads a Claude Code settings file (`.claude/settings.json` and its kin) as a JSON object. A missing
 * or empty file is an empty object (Claude Code treats it so); a file that is not a JSON object is
 * an error naming the file, so neither the policy reader nor the installer acts on a guess.
 */
export async function readClaudeSettingsFile(settingsPath: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(settingsPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  if (text.trim() === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TypeError(`${settingsPath} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new TypeError(`${settingsPath} does not hold a JSON object`);
  }
  return json as Record<string, unknown>;
}
