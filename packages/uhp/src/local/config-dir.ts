import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * Where Arbiter keeps per-user configuration: `ARBITER_CONFIG_DIR`, else `$XDG_CONFIG_HOME/arbiter`
 * (the XDG rule: only an absolute value counts), else the platform's convention.
 */
export function resolveConfigDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.ARBITER_CONFIG_DIR) return resolve(env.ARBITER_CONFIG_DIR);
  if (env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME)) return join(env.XDG_CONFIG_HOME, 'arbiter');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'arbiter');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'arbiter');
  return join(home, '.config', 'arbiter');
}
