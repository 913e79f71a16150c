import { isProtectivePosition, namesSecurity, settingWords } from '../exposure-settings.js';
import type { Finding } from '../finding.js';
import type { EditContent } from './file-role.js';

/**
 * Issue 27, "understood or ask", for configuration: a switch (`name: true`, `name="false"`) is a
 * policy in one word, and which side of it is the safe one depends on what it names. The gate
 * reads the meaning of switches named for security (`exposure-settings.ts`) and of switches whose
 * either side is harmless (presentation, build output, developer conveniences). A switch it cannot
 * read, flipped or added by an edit the task does not name it in, is a change it does not
 * understand: asked, never allowed on silence.
 */

/** Files whose content is configuration: every `name: value` there is a setting. */
const CONFIGURATION_FILE =
  /\.(json|jsonc|json5|ya?ml|toml|ini|cfg|conf|properties|xml|plist|tf|tfvars|hcl|bicep|env|editorconfig|npmrc|yarnrc)$|(^|\/)\.env(\.[\w-]+)?$|(^|\/)\.[\w-]+rc$/i;

/** `name: true`, `name = "false"`, `name="on"`: a switch and its position. */
const SWITCH =
  /(?<![\w.-])([A-Za-z_][\w.-]{0,60})["']?\s*(?::=|=>|[:=])\s*["']?(true|false|yes|no|on|off|enabled|disabled)\b/gi;

/**
 * Words of switches whose either position is harmless to anyone but the developer: how output
 * looks, how the build is produced, how the editor and the tools behave locally.
 */
const UNDERSTOOD_WORD = new Set(
  (
    'pretty verbose quiet silent color colors colour colours emoji icons theme dark light compact indent ' +
    'sort sorted trailing semi semicolons quote quotes single bracket spacing wrap tabs tab format formatting ' +
    'minify minified uglify mangle sourcemap sourcemaps source map maps declaration declarations incremental ' +
    'composite watch hot reload live lazy preload prefetch cache cached caching experimental decorators ' +
    'emit interop synthetic esm module modules resolve json imports jsx strict unused implicit any null ' +
    'checks checked lint linting typecheck fix autofix notify notifications progress banner telemetry ' +
    'analytics animation animations scroll smooth fold folding minimap preview autosave save trim newline ' +
    'final eol charset bom gzip compress compression brotli parallel workers concurrency retry retries ' +
    'coverage bail randomize shuffle snapshot snapshots inline clear mocks restore reset timers fake ' +
    'fallback peer peers dedupe hoist hoisted shamefully lockfile frozen prefer offline ' +
    'description example examples docs readme changelog fund funding update notifier save exact'
  ).split(' '),
);

/** Words of the task, cut to a stem, so `minify` in a switch meets `minified` in the task. */
function taskStems(task: string): Set<string> {
  return new Set(
    task
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length >= 3)
      .map((word) => word.slice(0, 5)),
  );
}

const ON = /^(true|yes|on|enabled)$/i;

function switchesOf(text: string): Map<string, boolean> {
  const switches = new Map<string, boolean>();
  for (const match of text.matchAll(SWITCH)) switches.set(match[1]!, ON.test(match[2]!));
  return switches;
}

/** The first switch an edit flips or adds that the gate cannot read and the task does not name. */
export function unreadSwitch(input: EditContent): string | undefined {
  // A whole file written is new configuration: its content checks read it as a whole.
  if (input.whole || !CONFIGURATION_FILE.test(input.path)) return undefined;
  const before = switchesOf(input.removed);
  const stems = taskStems(input.task);
  for (const [name, on] of switchesOf(input.inserted)) {
    if (before.get(name) === on) continue;
    if (isProtectivePosition(name, on)) continue;
    const words = settingWords(name);
    // A harmless word does not make a security switch harmless (`strict-ssl`, `verbose_auth`).
    if (words.some((word) => UNDERSTOOD_WORD.has(word)) && !namesSecurity(name)) continue;
    if (words.some((word) => word.length >= 3 && stems.has(word.slice(0, 5)))) continue;
    return name;
  }
  return undefined;
}

export function judgeSwitchChange(input: EditContent): Finding[] {
  const name = unreadSwitch(input);
  return name === undefined
    ? []
    : [{ code: `content.switch-unread:${name.slice(0, 60)}`, uncertain: true, onTask: 0.5 }];
}
