/**
 * Windows paths in the shape the POSIX rules judge: the workspace relative, the user's profile
 * as `~`, the system's folders under `/`, temporary folders under `/tmp`, so that one set of
 * rules (credential files, persistence targets, delete severities) judges both systems.
 */
const DRIVE = /^[A-Za-z]:[\\/]/;

export function isWindowsPath(path: string | undefined): boolean {
  return path !== undefined && DRIVE.test(path);
}

/** `$env:USERPROFILE\.ssh\id_rsa` → `~/.ssh/id_rsa`; `C:\Windows\System32` → `/windows/system32`. */
export function posixFromWindows(raw: string, cwd: string | undefined): string {
  let path = raw.replace(/^["']|["']$/g, '');
  path = path
    .replace(/^\$(env:)?(USERPROFILE|HOME)\b/i, '~')
    .replace(/^%(USERPROFILE|HOMEPATH)%/i, '~')
    .replace(/^\$(env:)?(APPDATA)\b|^%APPDATA%/i, '~/AppData/Roaming')
    .replace(/^\$(env:)?(LOCALAPPDATA)\b|^%LOCALAPPDATA%/i, '~/AppData/Local')
    .replace(/^\$(env:)?(TEMP|TMP)\b|^%(TEMP|TMP)%/i, '/tmp')
    .replace(/^\$(env:)?(windir|SystemRoot)\b|^%(windir|SystemRoot)%/i, 'C:/Windows')
    .replace(/\\/g, '/');
  const folder = cwd?.replace(/\\/g, '/').replace(/\/+$/, '');
  if (folder !== undefined && DRIVE.test(folder) && path.toLowerCase().startsWith(`${folder.toLowerCase()}/`))
    return path.slice(folder.length + 1) || '.';
  if (folder !== undefined && path.toLowerCase() === folder.toLowerCase()) return '.';
  const profile = /^[A-Za-z]:\/Users\/[^/]+(\/|$)/i.exec(path);
  if (profile !== null) return `~/${path.slice(profile[0].length)}`.replace(/\/$/, '');
  if (/^[A-Za-z]:\/?$/.test(path)) return '/';
  if (DRIVE.test(path)) return `/${path.slice(3)}`.toLowerCase();
  return path;
}
