import { DEFAULT_HOST, DEFAULT_PORT } from '@arbiter/server';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerServeCommand } from './serve-command.js';

describe('arbiter serve options', () => {
  it('default to the server defaults without loading the server', () => {
    const program = new Command();
    registerServeCommand(program);
    const serve = program.commands.find((command) => command.name() === 'serve')!;
    expect(serve.opts()).toMatchObject({
      port: DEFAULT_PORT,
      host: DEFAULT_HOST,
      auth: true,
      logLevel: 'info',
    });
  });
});
