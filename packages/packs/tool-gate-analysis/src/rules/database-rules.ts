import type { Finding } from '../finding.js';
import type { FindingFamily } from '../finding-catalogue.js';
import { RISK } from '../risk-scale.js';
import type { CommandRule, CommandScope } from '../shell-command.js';
import { taskMentions } from '../task-scope.js';
import { options } from '../vocabulary/option-vocabulary.js';
import { OPTION_SPECS } from '../vocabulary/program-options.js';
import { parseArguments, specOf } from './option-parse.js';

/**
 * Database clients: the SQL (or Redis / Mongo command) they are given in arguments or on
 * standard input is read for statements that destroy data.
 */
export function judgeSql(scope: CommandScope, sql: string, client: string): void {
  for (const finding of sqlFindings(sql, `sql.${client}`, scope.task)) scope.add(finding);
}

/**
 * PostgreSQL's `COPY … TO/FROM 'file'` and file functions, MySQL's `INTO OUTFILE`, `LOAD DATA
 * INFILE` and `LOAD_FILE`, SQL Server's `BULK INSERT` and `OPENROWSET(BULK`. `COPY … TO STDOUT`
 * and `FROM STDIN` go through the client and are not here.
 */
const SERVER_FILES =
  /^COPY\b.*\b(TO|FROM)\s+'|\b(PG_READ_FILE|PG_READ_BINARY_FILE|PG_LS_DIR|PG_STAT_FILE|LO_IMPORT|LO_EXPORT|LOAD_FILE)\s*\(|\bINTO\s+(OUTFILE|DUMPFILE)\b|\bLOAD\s+DATA\b|^BULK\s+INSERT\b|\bOPENROWSET\s*\(\s*BULK\b/;

/** Tables and views where a database keeps its users' password hashes. */
const STORED_CREDENTIALS =
  /\b(PG_SHADOW|PG_AUTHID|MYSQL\.USER|SYS\.SQL_LOGINS|DBA_USERS|SYSLOGINS|AUTHENTICATION_STRING)\b|\b(SYS\.USER|RDB)\$/;

/**
 * The findings for SQL text, whoever runs it: a database client on the command line or an MCP
 * server's query tool. `prefix` names the runner in each finding's code.
 */
export function sqlFindings(sql: string, prefix: `${FindingFamily}.${string}`, task: string): Finding[] {
  const findings: Finding[] = [];
  const statements = sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ').split(';');
  for (const raw of statements) {
    const statement = raw.trim().replace(/\s+/g, ' ');
    if (statement === '') continue;
    const upper = statement.toUpperCase();
    let finding: { code: string; destructive: number } | undefined;
    // SQL that starts an operating-system program on the database server (PostgreSQL's COPY …
    // PROGRAM, SQL Server's xp_cmdshell, MySQL UDFs sys_exec / sys_eval) runs code there.
    if (
      /^COPY\b.*\bPROGRAM\b/.test(upper) ||
      /\b(XP_CMDSHELL|SYS_EXEC|SYS_EVAL)\b/.test(upper) ||
      /\bLOAD_EXTENSION\s*\(/.test(upper)
    )
      finding = { code: 'runs-program', destructive: RISK.denyHigh };
    // SQL that reads or writes files on the database server's host reaches past the database:
    // a table dumped to a file there, or a host file read into a result.
    else if (SERVER_FILES.test(upper)) finding = { code: 'server-files', destructive: RISK.askHigh };
    else if (/^DROP (DATABASE|SCHEMA|TABLE|USER|ROLE|OWNED)\b/.test(upper))
      finding = { code: 'drop', destructive: RISK.denyHigh };
    else if (/^DROP\b/.test(upper)) finding = { code: 'drop-object', destructive: RISK.askHigh };
    else if (/^TRUNCATE\b/.test(upper)) finding = { code: 'truncate', destructive: RISK.denyHigh };
    else if (/^DELETE\b/.test(upper))
      finding = /\bWHERE\b/.test(upper)
        ? { code: 'delete-where', destructive: RISK.ask }
        : { code: 'delete-all', destructive: RISK.denyHigh };
    else if (/^UPDATE\b/.test(upper))
      finding = /\bWHERE\b/.test(upper)
        ? { code: 'update-where', destructive: RISK.askLow }
        : { code: 'update-all', destructive: RISK.deny };
    else if (/^ALTER TABLE\b.*\bDROP\b/.test(upper))
      finding = { code: 'alter-drop', destructive: RISK.threshold };
    // A role made a superuser, or every privilege granted to everyone, hands the database over.
    else if (
      /^(CREATE|ALTER) (USER|ROLE)\b.*\b(SUPERUSER|CREATEROLE|BYPASSRLS|REPLICATION)\b/.test(upper) ||
      /^GRANT\b.*\bTO\s+PUBLIC\b/.test(upper) ||
      /^GRANT ALL\b.*\bWITH GRANT OPTION\b/.test(upper)
    )
      finding = { code: 'grants-superuser', destructive: RISK.deny };
    // Server-wide settings reach every user of the database; switching off its encryption,
    // logging or password hashing weakens them all.
    else if (/^(ALTER SYSTEM|SET GLOBAL|SET PERSIST)\b/.test(upper))
      finding =
        /\b(SSL|REQUIRE_SECURE_TRANSPORT|LOG_\w+|GENERAL_LOG\w*|AUDIT\w*|PASSWORD_ENCRYPTION|LOGGING_COLLECTOR)\b\s*(=|TO)\s*'?(OFF|NONE|FALSE|0|MD5|PLAIN)\b/.test(
          upper,
        )
          ? { code: 'server-setting-weakened', destructive: RISK.deny }
          : { code: 'server-setting', destructive: RISK.askHigh };
    else if (/^(GRANT|REVOKE|ALTER (USER|ROLE))\b/.test(upper))
      finding = { code: 'privileges', destructive: RISK.ask };
    else if (/^(INSERT|CREATE|ALTER|COPY|REPLACE|MERGE|UPSERT)\b/.test(upper))
      finding = { code: 'write', destructive: RISK.routine };
    // The database's own credential tables: password hashes printed into the context.
    else if (STORED_CREDENTIALS.test(upper)) finding = { code: 'reads-credentials', destructive: RISK.deny };
    else if (/^(SELECT|SHOW|DESCRIBE|DESC|EXPLAIN|WITH|VALUES|PRAGMA|\\[a-z])/i.test(statement)) continue;
    else if (/^(BEGIN|COMMIT|ROLLBACK|SET|USE|START|\.[a-z]+)/i.test(statement)) continue;
    else finding = { code: 'not-understood', destructive: RISK.askLow };
    if (finding.destructive > RISK.low && taskNamesEveryObject(task, statement)) {
      // Principle 8: the task names this statement's every object and asks for it to go.
      findings.push({
        code: `${prefix}.${finding.code}[intent.task-names-target]`,
        destructive: RISK.low,
        onTask: 0.85,
      });
      continue;
    }
    findings.push({
      code: `${prefix}.${finding.code}`,
      destructive: finding.destructive,
      onTask: finding.destructive > 0.2 ? 0.4 : 0.8,
    });
  }
  return findings;
}

/**
 * The tables a DROP TABLE, TRUNCATE or DELETE statement names, when the statement is one of those
 * and names them plainly; `undefined` for anything broader (a database, a schema, a pattern).
 */
function objectsOf(statement: string): string[] | undefined {
  const match =
    /^DROP TABLE (?:IF EXISTS )?([\w.", ]+?)(?: CASCADE| RESTRICT)?$/i.exec(statement) ??
    /^TRUNCATE (?:TABLE )?(?:ONLY )?([\w.", ]+?)(?: CASCADE| RESTRICT)?$/i.exec(statement) ??
    /^DELETE FROM ([\w."]+)(?: WHERE .*)?$/i.exec(statement);
  if (match === null) return undefined;
  return match[1]!.split(',').map((name) => name.trim().replace(/"/g, ''));
}

/** Whether the task asks for removal and names every table the statement touches, as whole words. */
function taskNamesEveryObject(task: string, statement: string): boolean {
  const objects = objectsOf(statement);
  if (objects === undefined || objects.length === 0 || !taskMentions(task, 'delete')) return false;
  return objects.every((name) => {
    const last = name.slice(name.lastIndexOf('.') + 1);
    if (last.length < 3) return false;
    return new RegExp(`(^|[\\s\`'"(])${last.replace(/[^\w]/g, '')}($|[\\s\`'").,;:!?])`, 'i').test(task);
  });
}

/**
 * A SQL client: its command options (`psql -c`, `mysql -e`) carry SQL, and `sqlite3 db 'SQL'` takes
 * it as operands. `clusters`: whether its short options cluster (`psql -qAc`); sqlite's and
 * sqlcmd's single-dash options are whole words (`-batch`, `-cmd`).
 */
function sqlClient(commandFlags: readonly string[], positionalSql: boolean, clusters = true): CommandRule {
  const spec = specOf(options(commandFlags.map((flag) => `${flag}=`).join(' ')), OPTION_SPECS['sql client']);
  return (scope) => {
    const { args, program } = scope.command;
    let found = false;
    const parsed = parseArguments(args, spec, { negativeNumbers: 'option', clusters });
    for (const option of parsed.options) {
      if (commandFlags.includes(option.name)) {
        found = true;
        judgeSql(scope, option.value ?? '', program);
      } else if (option.name === '-f' || option.name === '--file') {
        found = true;
        scope.add({
          code: `sql.${program}.file:${option.value ?? ''}`,
          destructive: RISK.askLow,
          onTask: 0.6,
        });
      }
    }
    const operands = parsed.positionals.filter((operand) => operand !== '-');
    if (positionalSql && operands.length >= 2) {
      found = true;
      judgeSql(scope, operands.slice(1).join(' '), program);
    }
    if (scope.command.input.kind === 'document') {
      found = true;
      judgeSql(scope, scope.command.input.body, program);
    }
    if (/prod/i.test(args.join(' ')) && !taskMentions(scope.task, 'production'))
      scope.add({ code: `sql.${program}.production`, onTask: 0.3 });
    if (!found && scope.command.input.kind === 'pipe')
      scope.add({ code: `sql.${program}.piped-statements`, uncertain: true, destructive: RISK.askLow });
    else if (!found) scope.add({ code: `sql.${program}.session`, uncertain: true });
  };
}

const REDIS_DESTRUCTIVE: Readonly<Record<string, number>> = {
  FLUSHALL: RISK.certain,
  FLUSHDB: RISK.denyHigh,
  SHUTDOWN: RISK.deny,
  DEL: RISK.ask,
  UNLINK: RISK.ask,
  CONFIG: RISK.ask,
  SCRIPT: RISK.ask,
  DEBUG: RISK.askHigh,
  SWAPDB: RISK.askHigh,
  RENAME: RISK.askLow,
  EXPIRE: RISK.askLow,
  MIGRATE: RISK.ask,
};

const redis: CommandRule = (scope) => {
  const args = scope.command.args;
  const parsed = parseArguments(args, OPTION_SPECS['redis-cli'], {
    clusters: false,
    firstPositionalEndsOptions: true,
    negativeNumbers: 'option',
  });
  // `--eval script.lua keys…`: the words after the script are its keys and arguments, no command.
  const evaluates = parsed.options.some((option) => option.name === '--eval');
  const index = evaluates
    ? args.length
    : (parsed.tokens.find((token) => token.kind === 'positional')?.index ?? args.length);
  const command = args[index]?.toUpperCase();
  const lines =
    command === undefined && scope.command.input.kind === 'document'
      ? scope.command.input.body.split('\n')
      : [args.slice(index).join(' ')];
  for (const line of lines) {
    const verb = line.trim().split(/\s+/)[0]?.toUpperCase() ?? '';
    const severity = Object.hasOwn(REDIS_DESTRUCTIVE, verb) ? REDIS_DESTRUCTIVE[verb] : undefined;
    if (severity !== undefined)
      scope.add({ code: `redis.${verb.toLowerCase()}`, destructive: severity, onTask: 0.3 });
  }
  if (command === undefined && scope.command.input.kind === 'none')
    scope.add({ code: 'redis.session', uncertain: true });
};

const mongo: CommandRule = (scope) => {
  const args = scope.command.args;
  const evalIndex = args.indexOf('--eval');
  const code =
    evalIndex >= 0
      ? (args[evalIndex + 1] ?? '')
      : scope.command.input.kind === 'document'
        ? scope.command.input.body
        : undefined;
  if (code === undefined) {
    scope.add({ code: 'mongo.session', uncertain: true });
    return;
  }
  if (/dropDatabase\s*\(|\.drop\s*\(\s*\)|dropAllUsers|dropUser/.test(code))
    scope.add({ code: 'mongo.drop', destructive: RISK.denyHigh, onTask: 0.2 });
  else if (/\.(deleteMany|remove)\s*\(\s*(\{\s*\})?\s*\)/.test(code))
    scope.add({ code: 'mongo.delete-all', destructive: RISK.denyHigh, onTask: 0.2 });
  else if (/\.(deleteMany|deleteOne|remove|findOneAndDelete|updateMany|replaceOne)\s*\(/.test(code))
    scope.add({ code: 'mongo.delete-or-update', destructive: RISK.ask, onTask: 0.4 });
};

const dropTool = (scope: CommandScope) => {
  if (scope.command.args.some((arg) => arg === '--help' || arg === '--version')) return;
  scope.add({ code: `db.${scope.command.program}`, destructive: RISK.denyHigh, onTask: 0.2 });
};

export const DATABASE_RULES: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
  ['psql', sqlClient(['-c', '--command'], false)],
  ['mysql', sqlClient(['-e', '--execute'], false)],
  ['mariadb', sqlClient(['-e', '--execute'], false)],
  ['sqlite3', sqlClient(['-cmd'], true, false)],
  ['sqlite', sqlClient(['-cmd'], true, false)],
  ['duckdb', sqlClient(['-c', '-cmd'], true, false)],
  ['sqlcmd', sqlClient(['-Q', '-q'], false, false)],
  ['clickhouse-client', sqlClient(['-q', '--query'], false)],
  ['cockroach', sqlClient(['-e', '--execute'], false)],
  ['cqlsh', sqlClient(['-e', '--execute'], false)],
  ['redis-cli', redis],
  ['valkey-cli', redis],
  ['mongo', mongo],
  ['mongosh', mongo],
  ['dropdb', dropTool],
  ['dropuser', dropTool],
  [
    'mysqladmin',
    (scope) => {
      if (scope.command.args.some((arg) => /^(drop|shutdown)$/i.test(arg))) dropTool(scope);
    },
  ],
  [
    'pg_restore',
    (scope) => {
      if (scope.command.args.some((arg) => arg === '-c' || arg === '--clean'))
        scope.add({ code: 'db.pg_restore.clean', destructive: RISK.threshold, onTask: 0.3 });
    },
  ],
]);
