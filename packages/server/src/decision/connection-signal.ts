import type { Socket } from 'node:net';

const signals = new WeakMap<Socket, AbortSignal>();

/**
 * A signal that aborts when the client's connection closes, so an engine stops working for a
 * client that went away. One signal per connection, not per request: an `AbortController` costs
 * several microseconds to create on Node 20 (a measurable share of a built-in decision, see
 * docs/benchmarks.md), and an HTTP/1.1 connection carries its requests one after another, so
 * every request still running on it has lost its client when it closes.
 */
export function connectionSignal(socket: Socket): AbortSignal {
  const existing = signals.get(socket);
  if (existing !== undefined) return existing;
  const controller = new AbortController();
  if (socket.destroyed) controller.abort(new Error('the client closed the connection'));
  else socket.once('close', () => controller.abort(new Error('the client closed the connection')));
  signals.set(socket, controller.signal);
  return controller.signal;
}
