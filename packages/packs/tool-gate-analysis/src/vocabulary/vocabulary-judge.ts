import { isProtectivePosition, namesSecurity } from '../exposure-settings.js';
import { isLoopbackHost } from '../loopback-host.js';
import { RISK } from '../risk-scale.js';
import type { CommandScope } from '../shell-command.js';
import { taskMentions } from '../task-scope.js';
import { type ProgramVocabulary, readOptions } from './option-vocabulary.js';
import { PROGRAM_VOCABULARIES, SERVICE_READ_OPTIONS } from './program-options.js';

/**
 * A service CLI's option that names which resource to act on (`--secret-id x`, `--queue-url u`,
 * `--bootstrap-server h`, `--entity-name n`) selects; it does not change what the command does, so
 * given with a value it is routine. A flag without a value (`--show-token`, `--with-decryption`)
 * changes behaviour and must be known.
 */
const SELECTOR =
  /^--?([a-z0-9]+-)*(id|ids|name|names|arn|arns|url|urls|uri|slug|group|groups|topic|topics|queue|bucket|table|vault|server|servers|host|type|stage|key|keys|prefix|path|length|size|count|messages|version|versions|config|project|org|team|token|account|cluster|region|zone|instance|database|schema|channel|environment|env|service|function|role|user|email|file)$/;

const SERVICE_READ: ProgramVocabulary = { subcommands: { '': SERVICE_READ_OPTIONS } };

/**
 * Judges a command's options against its program's vocabulary (issue 27, "understood or ask").
 * `serviceRead` judges a service CLI's read or additive call against the options such calls share,
 * for CLIs that have no vocabulary of their own.
 */
export function judgeOptionVocabulary(
  scope: CommandScope,
  serviceRead: false | 'read' | 'create' = false,
  program = scope.command.program,
  args: readonly string[] = scope.command.args,
): void {
  const own = PROGRAM_VOCABULARIES.get(program);
  if (serviceRead && own !== undefined) return;
  const vocabulary = own ?? (serviceRead ? SERVICE_READ : undefined);
  if (vocabulary === undefined) return;
  const separator = args.indexOf('--');
  const reading = readOptions(vocabulary, separator >= 0 ? args.slice(0, separator) : args);
  const where = reading.subcommand ? `${program} ${reading.subcommand}` : program;
  if (reading.unknownSubcommand !== undefined)
    scope.add({
      code: `vocab.unknown-subcommand:${program} ${reading.unknownSubcommand.slice(0, 40)}`,
      uncertain: true,
      onTask: 0.6,
    });
  const unknown = reading.unknown
    // A create's valued options describe what it creates (`--partitions 3`).
    .filter(
      (each) => !(serviceRead && each.valued && (serviceRead === 'create' || SELECTOR.test(each.option))),
    )
    .map((each) => each.option);
  for (const option of unknown.slice(0, 4))
    scope.add({ code: `vocab.unknown-option:${where}:${option.slice(0, 40)}`, uncertain: true, onTask: 0.6 });
  const pushes =
    reading.roles.some((role) => role.role === 'publish' && !/^(-o|--output)$/.test(role.option)) ||
    // `--output type=registry` and `push=true` send the built image to its registry.
    (reading.roles.some((role) => role.role === 'publish') &&
      args.some((arg) => /(^|[,=])(type=registry|push=true)(,|$)/.test(arg)));
  if (pushes)
    scope.add({
      code: `vocab.publishes:${where}`,
      destructive: RISK.routine,
      onTask: taskMentions(scope.task, 'publish') || taskMentions(scope.task, 'push') ? 0.85 : 0.1,
    });
  for (const { option } of reading.roles.filter((role) => role.role === 'code'))
    scope.add({ code: `vocab.code-option:${where}:${option}`, uncertain: true, onTask: 0.6 });
  for (const { option } of reading.roles.filter((role) => role.role === 'secret'))
    scope.add({ code: `vocab.reveals-secret:${where}:${option}`, exfil: RISK.ask, onTask: 0.4 });
}

/** Key names that hold a credential, or a URL that embeds one (`DATABASE_URL`, `_authToken`). */
const CREDENTIAL_KEY =
  /(^|[^a-z])(_?auth_?token|token|secret|password|passwd|pwd|credentials?|api[_-]?key|private[_-]?key|access[_-]?key|client[_-]?secret|database_url|db_url|[a-z]*_dsn|dsn|connection[_-]?string|redis_url|mongo(db)?_(uri|url)|amqp_url)([^a-z]|$)/i;
/** Subcommand words that print a stored setting or variable. */
const GETTER = /^(get|config:get|show|print|view|reveal|cat|env:get|vars?:get|secrets?:get|output|outputs)$/i;
/**
 * Words that say the store holds settings or variables. A deployment's outputs are such a store:
 * `terraform output -raw db_password` prints what `sensitive = true` hides in the plain listing.
 */
const SETTINGS_STORE =
  /^(config|configs|env|environment|vars?|variables|settings|secrets?|config:get|env:get|output|outputs)$/i;

/**
 * Principle 4 (revealing a secret), whatever the program: a getter of a configuration or
 * environment store asked for a key that names a credential prints that credential into the
 * transcript (`npm config get //registry…/:_authToken`, `heroku config:get DATABASE_URL`).
 */
export function judgeNamedSecretGetter(scope: CommandScope): void {
  const { program, args } = scope.command;
  const words = args.filter((arg) => !arg.startsWith('-'));
  const getterAt = words.findIndex((word) => GETTER.test(word));
  if (getterAt < 0) return;
  const store = words.slice(0, getterAt + 1).some((word) => SETTINGS_STORE.test(word));
  if (!store) return;
  const key = words.slice(getterAt + 1).find((word) => CREDENTIAL_KEY.test(word));
  if (key === undefined) return;
  scope.secretSource(`${program}:${key}`);
  scope.add({
    code: `secret.reveal-by-name:${program}:${key.slice(0, 60)}`,
    exfil: RISK.ask,
    onTask: 0.4,
  });
}

/** Subcommand words that store a setting. */
const SETTER = /^(set|config:set|env:set|vars?:set|--set|--add)$/i;
/** Words of a setting that decides what runs or what is trusted, beyond the names of security itself. */
const RUNS_OR_TRUSTS = /(^|[-_.])(scripts?|hooks?|code|exec|trusted|trust|strict)([-_.]|$)/i;

/**
 * Understood or ask, for configuration stores set from the shell (`npm config set`, `pip config
 * set`, `yarn config set`, `git config`): a setting named for security, or for what runs and what
 * is trusted (`ignore-scripts`, `strict-ssl`, `core.hooksPath`), changes every later command of
 * that tool, often machine-wide. Which side of it is safe depends on the word it is about, so a
 * change the task does not name is asked.
 */
export function judgeSecuritySetter(scope: CommandScope): void {
  const { args } = scope.command;
  const words = args.filter((arg) => !arg.startsWith('-') || SETTER.test(arg));
  const setterAt = words.findIndex((word) => SETTER.test(word));
  if (setterAt < 0) return;
  if (!words.slice(0, setterAt + 1).some((word) => SETTINGS_STORE.test(word) || word.startsWith('--')))
    return;
  const key = words[setterAt + 1]?.split('=')[0];
  if (key === undefined) return;
  if (!namesSecurity(key) && !RUNS_OR_TRUSTS.test(key)) return;
  if (taskNamesSetting(scope.task, key)) return;
  // A switch moved to its protective side closes what was open (`strict-ssl true`). For a switch
  // that stops code from running (`ignore-scripts`), the protective side is on.
  const value = (words[setterAt + 1]?.split('=')[1] ?? words[setterAt + 2] ?? '').toLowerCase();
  if (/^(true|false|yes|no|on|off|1|0|enabled|disabled)$/.test(value)) {
    const on = /^(true|yes|on|1|enabled)$/.test(value);
    const stopsCode =
      /(^|[-_.])(ignore|skip|disable|no)([-_.]|$)/i.test(key) &&
      /(^|[-_.])(scripts?|hooks?|code|exec)([-_.]|$)/i.test(key);
    if (stopsCode ? on : isProtectivePosition(key, on)) return;
  }
  scope.add({ code: `vocab.security-setting:${key.slice(0, 60)}`, uncertain: true, onTask: 0.5 });
}

/** Whether the task names a setting by one of its words (`ignore-scripts` in "turn off ignore scripts"). */
function taskNamesSetting(task: string, key: string): boolean {
  const words = key
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 4);
  return words.length > 0 && words.every((word) => task.toLowerCase().includes(word));
}

/**
 * A key made below the strength floor: RSA under 2048 bits, DSA at all (`ssh-keygen -t rsa -b
 * 1024`, `openssl genrsa 1024`, `-newkey rsa:1024`). Whatever it protects can be forged or read by
 * whoever factors it.
 */
export function judgeWeakKey(scope: CommandScope): void {
  const { program, args } = scope.command;
  if (!/^(ssh-keygen|openssl|gpg|gpg2|keytool|certtool)$/.test(program)) return;
  const joined = ` ${args.join(' ')} `;
  const rsaBits =
    /\s-b\s*(\d+)\s/.exec(joined)?.[1] ??
    /\brsa:(\d+)\b/i.exec(joined)?.[1] ??
    /\s-keysize\s+(\d+)\s/.exec(joined)?.[1] ??
    (/\sgenrsa\b/.test(joined) ? /\s(\d{3,5})\s*$/.exec(joined)?.[1] : undefined);
  const rsa = !/\s-t\s+(ed25519|ecdsa)/.test(joined) && !/\s-keyalg\s+EC/i.test(joined);
  const weakRsa = rsa && rsaBits !== undefined && Number(rsaBits) < 2048;
  const dsa = /\s-t\s+dsa\b|\sgendsa\b|\s-keyalg\s+DSA\b/i.test(joined);
  if (weakRsa || dsa)
    scope.add({
      code: `vocab.weak-key:${program}:${dsa ? 'dsa' : `rsa-${rsaBits}`}`,
      deny: RISK.askHigh,
      onTask: 0.3,
    });
}

/** Words that say a command sets where packages or code come from. */
const SOURCE_WORD =
  /(^|[-.:])(sources?|registry|registries|index(-url)?|extra-index-url|feeds?|mirrors?|repos?|repositor(y|ies)|channels?|remotes?|trusted-host)([-.=:]|$)/i;

/**
 * Principle 7 (the transport half), whatever the program: a package source, registry, index,
 * feed or mirror given over plain HTTP to another host lets anyone on the path serve the code
 * every later install runs (`dotnet nuget add source http://…`, `npm install --registry http://…`).
 */
export function judgePlainHttpSource(scope: CommandScope): void {
  const { args } = scope.command;
  if (!args.some((arg) => SOURCE_WORD.test(arg.replace(/^-+/, '').split('=')[0]!))) return;
  for (const arg of args) {
    const url = /(?:^|=)http:\/\/([^/:\s'"]+)/i.exec(arg);
    if (url === null || isLoopbackHost(url[1]!)) continue;
    scope.add({ code: `supply.plain-http-source:${url[1]!.slice(0, 60)}`, deny: RISK.askHigh, onTask: 0.3 });
    return;
  }
}
