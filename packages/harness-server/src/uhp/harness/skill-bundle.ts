import type { Skill, SkillFile } from '@arbiter/uhp/wire';
import { unprocessableInput } from '../uhp-error.js';

/** Documented limits of one skill folder (docs/uhp-server.md). */
export const SKILL_LIMITS = { maxFiles: 200, maxBytes: 4 * 1024 * 1024, maxPathLength: 255 } as const;

const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const refuse = unprocessableInput;

/** A relative path that stays inside the skill folder: no absolute, `..`, empty or backslash segments. */
function checkPath(filePath: string, param: string): void {
  if (filePath.length === 0 || filePath.length > SKILL_LIMITS.maxPathLength)
    throw refuse('A skill file path must be 1 to 255 characters long.', param);
  if (filePath.startsWith('/') || filePath.includes('\\') || filePath.includes('\0'))
    throw refuse('A skill file path must be relative to the skill folder.', param);
  for (const segment of filePath.split('/')) {
    if (segment === '' || segment === '.' || segment === '..')
      throw refuse('A skill file path must not leave the skill folder or contain empty segments.', param);
  }
}

/**
 * Validates one skill as a folder and returns it normalised (the `content` shorthand becomes a
 * one-file bundle). File members are kept exactly as sent, so a GET returns the same bytes.
 */
export function normaliseSkill(skill: Skill, param: string): Skill {
  if (!SKILL_NAME.test(skill.name))
    throw refuse(
      'A skill name must be 1 to 64 letters, digits, dots, dashes or underscores.',
      `${param}.name`,
    );
  const files: SkillFile[] =
    skill.files ?? (skill.content !== undefined ? [{ path: 'SKILL.md', content: skill.content }] : []);
  if (files.length > SKILL_LIMITS.maxFiles)
    throw refuse(`A skill holds at most ${SKILL_LIMITS.maxFiles} files.`, `${param}.files`);
  const seen = new Set<string>();
  let bytes = 0;
  files.forEach((file, index) => {
    const fileParam = `${param}.files[${index}]`;
    checkPath(file.path, `${fileParam}.path`);
    if (seen.has(file.path)) throw refuse('A skill folder lists the same path twice.', `${fileParam}.path`);
    seen.add(file.path);
    const hasText = typeof file.content === 'string';
    const hasBinary = typeof file.content_b64 === 'string';
    if (hasText === hasBinary)
      throw refuse('Each skill file needs exactly one of content or content_b64.', fileParam);
    if (hasBinary && (!BASE64.test(file.content_b64!) || file.content_b64!.length % 4 !== 0))
      throw refuse('content_b64 is not valid base64.', `${fileParam}.content_b64`);
    bytes += hasText ? Buffer.byteLength(file.content!) : Buffer.from(file.content_b64!, 'base64').length;
  });
  // A folder cannot also be a file: `x` next to `x/y` has no layout on disk.
  files.forEach((file, index) => {
    const segments = file.path.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const folder = segments.slice(0, depth).join('/');
      if (seen.has(folder))
        throw refuse(
          `"${folder}" is both a file and the folder of "${file.path}".`,
          `${param}.files[${index}].path`,
        );
    }
  });
  if (bytes > SKILL_LIMITS.maxBytes)
    throw refuse(`A skill folder holds at most ${SKILL_LIMITS.maxBytes} bytes.`, `${param}.files`);
  if (!seen.has('SKILL.md'))
    throw refuse('A skill folder must contain SKILL.md at its root.', `${param}.files`);
  const { content: _shorthand, blob: _blob, ...rest } = skill;
  return { ...rest, enabled: skill.enabled ?? true, files: files.map((file) => ({ ...file })) };
}

/** The bytes of a skill file, for materialising it in a workspace. */
export function skillFileBytes(file: SkillFile): Buffer {
  return file.content_b64 !== undefined
    ? Buffer.from(file.content_b64, 'base64')
    : Buffer.from(file.content ?? '');
}
