/**
 * Hosts that name this machine: `localhost`, the 127.0.0.0/8 block, IPv6's `::1`, and `0.0.0.0`,
 * which a connection reaches as this machine too. A port after the host (`localhost:3000`) is
 * allowed. What is sent there stays on the machine; what listens there is the developer's own.
 */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?|0\.0\.0\.0)(:\d+)?$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host);
}

/** Whether a text (a loop's body, a wrapped command) addresses a URL on a host other than this machine. */
export function addressesOutsideHost(text: string): boolean {
  return [...text.matchAll(/\b(?:https?|wss?):\/\/(?:[^@/\s]*@)?([\w.-]+)/g)].some(
    (match) => !isLoopbackHost(match[1]!),
  );
}
