#!/usr/bin/env node
// No static imports: a `gate hook` forwarded to the daemon loads nothing else.
const argv = process.argv.slice(2);
let stdin: string | undefined;
let handled = false;

// Hosts run `gate hook` on every tool call: it is forwarded to a warm gate daemon when one runs,
// before anything heavy (commander, the gate, the shell parser) is loaded.
if (argv[0] === 'gate' && argv[1] === 'hook' && process.env.ARBITER_GATE_DAEMON !== 'off') {
  const { forwardGateHook } = await import('./commands/gate/daemon-client.js');
  const forwarded = await forwardGateHook(argv);
  if (forwarded.handled) handled = true;
  else stdin = forwarded.stdin;
}

if (!handled) {
  const { inputOf, processIo, withInvocationIo } = await import('./invocation-io.js');
  const read = stdin;
  const io = read === undefined ? processIo : { ...processIo, stdin: () => inputOf(read) };
  const [{ runCli }, { createProgram }] = await Promise.all([import('./cli-run.js'), import('./program.js')]);
  const exitCode = await withInvocationIo(io, () => runCli(argv, {}, createProgram));
  // A failure keeps an exit code the command chose itself before failing.
  if (exitCode !== undefined && !process.exitCode) process.exitCode = exitCode;
}
