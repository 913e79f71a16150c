import { copyFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '@arbiter/atomic-file';

/**
 * Writes a host's settings file (Claude Code's `settings.json`, Gemini CLI's, Codex's `hooks.json`)
 * the one way every hook installer does: the file as it was is first copied to
 * `<file>.arbiter-backup-<time>`, so a user can undo what we changed in a file that is theirs; then
 * `settings`, as indented JSON, replace it atomically, so a host reading its settings meanwhile
 * finds the old file or the new one, never half. Creates the file's directory when missing.
 *
 * Returns the backup's path, or null when there was no file to back up.
 */
export async function writeSettingsWithBackup(
  settingsPath: string,
  settings: Readonly<Record<string, unknown>>,
): Promise<string | null> {
  await mkdir(dirname(settingsPath), { recursive: true });
  let backupPath: string | null =
    `${settingsPath}.arbiter-backup-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    await copyFile(settingsPath, backupPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    backupPath = null;
  }
  await writeFileAtomic(settingsPath, `${JSON.stringify(settings, null, 2)}\n`);
  return backupPath;
}
