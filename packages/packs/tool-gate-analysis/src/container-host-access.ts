/**
 * A container given the host's root or system directories, the container engine's socket, the
 * host's PID, network or IPC namespace, privileged mode or the capabilities that administer the
 * kernel can act as the host: whatever its image runs is not contained. One reading for the
 * command line (`docker run -v /:/host`) and for compose files.
 */

/** A host path that hands the host to the container when mounted. */
const HOST_MOUNT_SOURCE =
  /^\/$|^\/(etc|home|root|var|proc|sys|boot|dev)(\/|$)|(^|\/)(docker|podman|containerd)\.sock$/;

export function mountsHost(hostPath: string): boolean {
  return HOST_MOUNT_SOURCE.test(hostPath.replace(/^["']|["']$/g, ''));
}

/**
 * What in a container specification's text gives the container the host, or undefined. Compose
 * files and Kubernetes manifests say the same things in their own words (`pid: host` and
 * `hostPID: true`, `cap_add` and `capabilities: add`, a volume and a `hostPath`).
 */
export function containerSpecHostAccess(text: string): string | undefined {
  if (/^\s*privileged\s*:\s*["']?true/m.test(text)) return 'privileged';
  if (/^\s*allowPrivilegeEscalation\s*:\s*["']?true/m.test(text)) return 'privilege-escalation';
  if (
    /^\s*(pid|network_mode|ipc|userns_mode)\s*:\s*["']?host\b/m.test(text) ||
    /^\s*host(Network|PID|IPC|Users)\s*:\s*["']?true/m.test(text)
  )
    return 'host-namespace';
  if (/^\s*runAsUser\s*:\s*0\s*$/m.test(text)) return 'root-user';
  if (
    /^\s*(cap_add|add)\s*:[\s\S]{0,200}?\b(ALL|SYS_ADMIN|SYS_MODULE|SYS_PTRACE|SYS_RAWIO|DAC_READ_SEARCH)\b/m.test(
      text,
    )
  )
    return 'capabilities';
  for (const match of text.matchAll(/\bhostPath\s*:\s*\n?\s*path\s*:\s*["']?([^"'\s]+)/g))
    if (mountsHost(match[1]!)) return `mounts:${match[1]}`;
  // Short syntax (`- /:/host:ro`) and long syntax (`source: /var/run/docker.sock`).
  for (const match of text.matchAll(/^\s*-\s*["']?([^:"'\s]+):[^\n]*$|^\s*source\s*:\s*["']?([^"'\s]+)/gm)) {
    const source = match[1] ?? match[2] ?? '';
    if (source.startsWith('/') && mountsHost(source)) return `mounts:${source}`;
  }
  return undefined;
}
