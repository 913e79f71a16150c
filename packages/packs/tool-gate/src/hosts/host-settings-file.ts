import { readFile } from 'node:fs/promises';

/**
 * Reads a host's settings file as a JSON object: Claude Code's `.claude/settings.json` and its kin,
 * Gemini CLI's `settings.json`, Codex's `hooks.json`. A missing or empty file is an empty object
 * (the hosts treat it so); a file that is not a JSON object is an error naming the file, so neither
 * the policy reader nor an installer acts on a guess or writes over what it cannot read.
 */
export async function readHostSettingsFile(settingsPath: string): Promise<Record<string, unknown>> {
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
    throw new TypeError(`${settingsPath} is not valid JSON (${(error as Error).message}); fix it first`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new TypeError(`${settingsPath} does not hold a JSON object; fix it first`);
  }
  return json as Record<string, unknown>;
}
