/**
 * Configuration files whose fields are shell commands that a tool runs later, without anyone typing
 * them: a dev container's lifecycle commands, a host's build and release commands, a Procfile's
 * processes, a test runner's command list, a container service's command (principle 2: text that
 * will run is read now, as a Dockerfile's RUN lines and a makefile's recipes are). Each reader takes
 * the file's text and returns the command lines it holds; a file of no listed kind holds none.
 *
 * Line readers, not a YAML, TOML or JSON parser: an Edit inserts a fragment of the file, which no
 * parser reads, and a command must be found in a fragment as in a whole file.
 */
interface CommandReader {
  readonly file: RegExp;
  readonly commands: (text: string) => string[];
}

/** The string values of these JSON keys, and the strings of an array value (`["npm", "ci"]` → `npm ci`). */
function jsonCommands(keys: readonly string[]): (text: string) => string[] {
  const pattern = new RegExp(`"(${keys.join('|')})"\\s*:\\s*("(?:\\\\.|[^"\\\\])*"|\\[[^\\]]*\\])`, 'g');
  return (text) =>
    [...text.matchAll(pattern)].flatMap((match) => {
      const value = match[2]!;
      const strings = [...value.matchAll(/"((?:\\.|[^"\\])*)"/g)].map((item) => unquoteJson(item[1]!));
      return value.startsWith('[') ? [strings.join(' ')] : strings;
    });
}

/** `key = "value"` (TOML and .replit) for these keys. */
function tomlCommands(keys: readonly string[]): (text: string) => string[] {
  const pattern = new RegExp(`^\\s*(${keys.join('|')})\\s*=\\s*(["'])((?:\\\\.|(?!\\2).)*)\\2`, 'gm');
  return (text) => [...text.matchAll(pattern)].map((match) => unquoteJson(match[3]!));
}

/** `key: value` and `key:` followed by `- item` lines (YAML) for these keys. */
function yamlCommands(keys: readonly string[]): (text: string) => string[] {
  const key = new RegExp(`^(\\s*)-?\\s*(${keys.join('|')})\\s*:\\s*(.*)$`);
  return (text) => {
    const lines = text.split('\n');
    const commands: string[] = [];
    for (let index = 0; index < lines.length; index++) {
      const match = key.exec(lines[index]!);
      if (match === null) continue;
      const inline = match[3]!.trim();
      if (inline !== '' && !/^[|>][-+]?$/.test(inline)) {
        // A flow sequence (`["node", "server.js"]`) is an argv: its items, unquoted, in order.
        const flow = /^\[(.*)\]$/.exec(inline)?.[1];
        commands.push(
          flow === undefined
            ? unquoteYaml(inline)
            : [...flow.matchAll(/"(?:\\.|[^"\\])*"|'[^']*'|[^,\s][^,]*/g)]
                .map((item) => unquoteYaml(item[0]))
                .join(' '),
        );
        continue;
      }
      // A block: the following lines indented deeper (list items or a literal block).
      const indent = match[1]!.length;
      while (index + 1 < lines.length) {
        const next = lines[index + 1]!;
        if (next.trim() !== '' && next.length - next.trimStart().length <= indent) break;
        index += 1;
        const item = next.trim().replace(/^-\s*/, '');
        if (item !== '') commands.push(unquoteYaml(item));
      }
    }
    return commands;
  };
}

const READERS: readonly CommandReader[] = [
  {
    file: /(^|\/)\.?devcontainer(\/[^/]+)?\.json$/,
    commands: jsonCommands([
      'initializeCommand',
      'onCreateCommand',
      'updateContentCommand',
      'postCreateCommand',
      'postStartCommand',
      'postAttachCommand',
    ]),
  },
  { file: /(^|\/)vercel\.json$/, commands: jsonCommands(['buildCommand', 'installCommand', 'devCommand']) },
  { file: /(^|\/)app\.json$/, commands: jsonCommands(['postdeploy', 'pr-predestroy', 'predestroy']) },
  { file: /(^|\/)netlify\.toml$/, commands: tomlCommands(['command']) },
  { file: /(^|\/)fly\.toml$/, commands: tomlCommands(['release_command', 'cmd']) },
  { file: /(^|\/)\.replit$/, commands: tomlCommands(['run', 'onBoot']) },
  { file: /(^|\/)\.gitpod\.ya?ml$/, commands: yamlCommands(['init', 'before', 'command']) },
  { file: /(^|\/)Taskfile\.ya?ml$/, commands: yamlCommands(['cmds', 'cmd']) },
  {
    file: /(^|\/)(docker-)?compose(\.[\w-]+)?\.ya?ml$/,
    commands: yamlCommands(['command', 'entrypoint']),
  },
  {
    // `name: command`, one process a line.
    file: /(^|\/)Procfile(\.[\w-]+)?$/,
    commands: (text) => text.split('\n').flatMap((line) => /^\s*[\w-]+\s*:\s*(.+)$/.exec(line)?.[1] ?? []),
  },
  {
    // tox's `commands =` and `commands_pre =`: the value and its indented continuation lines.
    file: /(^|\/)tox\.ini$/,
    commands: (text) => {
      const commands: string[] = [];
      let inside = false;
      for (const line of text.split('\n')) {
        const start = /^\s*commands(_pre|_post)?\s*=\s*(.*)$/.exec(line);
        if (start !== null) {
          inside = true;
          if (start[2]!.trim() !== '') commands.push(start[2]!.trim());
        } else if (inside && /^\s+\S/.test(line)) commands.push(line.trim());
        else inside = false;
      }
      return commands;
    },
  },
];

/** The shell command lines `text` holds, read as the file at `path` declares them; none for other files. */
export function commandsInConfig(path: string, text: string): string[] {
  const reader = READERS.find((candidate) => candidate.file.test(path));
  return reader === undefined ? [] : reader.commands(text).filter((command) => command.trim() !== '');
}

function unquoteJson(text: string): string {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}

function unquoteYaml(text: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(text.trim());
  return quoted === null ? text.trim() : quoted[2]!;
}
