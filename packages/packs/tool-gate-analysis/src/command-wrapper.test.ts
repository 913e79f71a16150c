import { beforeAll, describe, expect, it } from 'vitest';
import { analyseToolCallSync } from './analyse-tool-call.js';
import { loadBashParser } from './bash-parser.js';

function analyse(command: string) {
  return analyseToolCallSync({
    tool: 'Bash',
    arguments: { command },
    grant: ['Bash'],
    task: 'Fix the failing test.',
  }).answers;
}

beforeAll(async () => {
  await loadBashParser();
});

// The wrappers read their own options with the one option parser and their specifications in
// `OPTION_SPECS`: an option's value is not the wrapped command, and the command keeps its options.
describe('wrappers read their options from OPTION_SPECS', () => {
  it.each([
    'ionice -c 3 -n 7 rm -rf /',
    'stdbuf -o L rm -rf /',
    'runuser -u root -- rm -rf /',
    'time -o /dev/null -f %e rm -rf /',
    'numactl --membind 0 rm -rf /',
    'flock -w 5 /tmp/build.lock rm -rf /',
    'xvfb-run -a -s "-screen 0 1024x768x24" rm -rf /',
  ])('%j judges the wrapped command', (command) => {
    expect(analyse(command).destructive.noul).toBeGreaterThanOrEqual(0.7);
  });

  it.each(['nice -n 10 npm test', 'stdbuf -oL npm test', 'time -f %e npm test', 'timeout -k 5 60 npm test'])(
    '%j is the wrapped routine command',
    (command) => {
      expect(analyse(command).disposition.choice).toBe('allow');
    },
  );
});
