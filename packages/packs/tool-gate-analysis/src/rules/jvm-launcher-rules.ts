import type { CommandRule } from '../shell-command.js';
import { judgeByVerbs } from './cli-verb-judgement.js';

/**
 * The JVM launcher: `java` runs compiled code the gate cannot read, so it is judged by what it is
 * asked to run. A jar named as a CLI (jenkins-cli.jar) is a service CLI shipped for the JVM and
 * speaks the same verbs; any other jar or class is the project's program, on task as a build or
 * test run is.
 */
export const JVM_LAUNCHER_RULES: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
  [
    'java',
    (scope) => {
      const args = scope.command.args;
      const jar = args.indexOf('-jar');
      if (jar >= 0 && args[jar + 1] !== undefined) {
        const name = args[jar + 1]!.replace(/^.*\//, '').replace(/\.jar$/, '');
        if (/cli/i.test(name)) judgeByVerbs(scope, name, args.slice(jar + 2), true);
        else scope.add({ code: `code.java.jar:${name}`, onTask: 0.85 });
        return;
      }
      scope.add({ code: 'code.java.program', onTask: 0.85 });
    },
  ],
]);
