#!/usr/bin/env node
import { createProgram } from './program.js';

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`arbiter: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = process.exitCode && process.exitCode !== 0 ? process.exitCode : 1;
}
