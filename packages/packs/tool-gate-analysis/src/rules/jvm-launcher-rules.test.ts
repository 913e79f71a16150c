import { beforeAll, describe, expect, it } from 'vitest';
import { shellAnswers } from '../../test/support/shell-answers.js';
import { loadBashParser } from '../bash-parser.js';

const answersFor = (command: string) => shellAnswers(command, 'Fix the failing tests.');

beforeAll(async () => {
  await loadBashParser();
});

describe('the JVM launcher', () => {
  it.each(['java -jar build/libs/app.jar --port 8080', 'java -cp build/classes com.example.Main'])(
    '%j runs the project program and is not destructive',
    (command) => {
      const answers = answersFor(command);
      expect(answers.destructive.noul).toBeLessThan(0.5);
      expect(answers.disposition.choice).not.toBe('deny');
    },
  );

  it('judges a CLI shipped as a jar by its verbs, as the service CLI it is', () => {
    const destroy = answersFor('java -jar jenkins-cli.jar -s https://ci.example.com delete-job release');
    expect(destroy.destructive.noul).toBeGreaterThanOrEqual(0.7);
    const read = answersFor('java -jar jenkins-cli.jar -s https://ci.example.com list-jobs');
    expect(read.destructive.noul).toBeLessThan(0.5);
  });
});
