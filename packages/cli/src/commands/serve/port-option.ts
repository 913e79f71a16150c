import { InvalidArgumentError } from 'commander';

/** Commander parser for a TCP port (0 picks a free one). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  }
  return port;
}
