import { z } from 'zod';
import { DEFAULT_PROGRAM_PRIORITY, programPrioritySchema } from './sandbox-priority.js';

/**
 * Resource limits of one sandboxed process tree. `null` leaves a limit to the host's default. Each is
 * set as a hard rlimit (soft = hard) before the program starts, so the program cannot raise it.
 */
const processLimitsSchema = z.strictObject({
  /** CPU seconds of each process (RLIMIT_CPU; the tree's wall time is bounded separately). */
  cpuSeconds: z.number().int().min(1).max(86_400).nullable(),
  /** Address space of each process in MiB (RLIMIT_AS). */
  memoryMiB: z.number().int().min(64).max(1_048_576).nullable(),
  /** Processes and threads of the sandbox (RLIMIT_NPROC; counted per sandbox, see docs/security.md). */
  processes: z.number().int().min(4).max(65_536).nullable(),
  /** Largest file a process may write, in MiB (RLIMIT_FSIZE). */
  fileSizeMiB: z.number().int().min(1).max(1_048_576).nullable(),
  /** Open file descriptors of each process (RLIMIT_NOFILE). */
  openFiles: z.number().int().min(16).max(1_048_576).nullable(),
  /** Size of the private /tmp in MiB (a tmpfs, so it is memory). */
  tmpMiB: z.number().int().min(1).max(65_536),
});
export type ProcessLimits = z.infer<typeof processLimitsSchema>;

/** Limits of commands (the shell tool, `@shell`, search): short programs. */
export const DEFAULT_COMMAND_LIMITS: ProcessLimits = {
  cpuSeconds: 60,
  memoryMiB: 2048,
  processes: 128,
  fileSizeMiB: 256,
  openFiles: 1024,
  tmpMiB: 256,
};

/** Limits of ACP agent processes: long-lived Node or Python programs that run a whole turn. */
export const DEFAULT_AGENT_LIMITS: ProcessLimits = {
  cpuSeconds: null,
  memoryMiB: 8192,
  processes: 256,
  fileSizeMiB: 1024,
  openFiles: 4096,
  tmpMiB: 512,
};

/** The ids sandboxes run under when the server is root: each running sandbox leases one of its own. */
const userRangeSchema = z.strictObject({
  first: z.number().int().min(1000).max(4_000_000_000),
  count: z.number().int().min(1).max(1_000_000),
});
export type SandboxUserRange = z.infer<typeof userRangeSchema>;

/** Above the ranges distributions give to users, systemd's dynamic users and containers. */
export const DEFAULT_USER_RANGE: SandboxUserRange = { first: 0x7000_0000, count: 4096 };

/**
 * The `sandbox` section of the configuration file (docs/security.md). Every process a task starts —
 * the shell tool, the offline model's `@shell`, search, ACP agents — starts inside this sandbox.
 */
export const sandboxConfigSchema = z.strictObject({
  /**
   * `bubblewrap` (the default): isolate every task process, and refuse to run programs when the
   * sandbox cannot start. `off-unsafe`: run them as the server's user with no isolation at all.
   */
  mode: z.enum(['bubblewrap', 'off-unsafe']).default('bubblewrap'),
  /** The bubblewrap executable: a name looked up on PATH or an absolute path. */
  bwrap: z.string().min(1).default('bwrap'),
  /** Let commands reach the network (ACP agents have their own setting). Default false. */
  network: z.boolean().default(false),
  commandLimits: processLimitsSchema.partial().default({}),
  agentLimits: processLimitsSchema.partial().default({}),
  /**
   * How the allow-listed /etc entries are shown: `staged` (the default) mounts one watched copy of
   * them, `per-entry` binds each from the host. Both show the same files; staged starts faster.
   */
  etc: z.enum(['staged', 'per-entry']).default('staged'),
  /** Host ids of sandboxes when the server runs as root. */
  users: userRangeSchema.default(DEFAULT_USER_RANGE),
  /** The CPU and I/O priority every task program starts with: below the server's (nice 10). */
  priority: programPrioritySchema.default(DEFAULT_PROGRAM_PRIORITY),
});
export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;
export type SandboxConfigInput = z.input<typeof sandboxConfigSchema>;

/** How an ACP agent's processes are sandboxed (`acp.agents[].sandbox`). */
export const agentSandboxSchema = z.strictObject({
  /** ACP agents call their model provider, so they reach the network unless this is false. */
  network: z.boolean().default(true),
  /** Host paths the agent needs to read (its installation outside /usr, for example). */
  readOnlyPaths: z.array(z.string().startsWith('/', 'an absolute path')).default([]),
  /** Host paths the agent may write besides the workspace (its own state); shared by every task. */
  writablePaths: z.array(z.string().startsWith('/', 'an absolute path')).default([]),
  limits: processLimitsSchema.partial().default({}),
});
export type AgentSandbox = z.infer<typeof agentSandboxSchema>;
export type AgentSandboxInput = z.input<typeof agentSandboxSchema>;
