import type { McpServer } from '@arbiter/uhp/wire';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { toolError } from '../tool-failure.js';

/** One tool an MCP server offers, named for the model as `mcp__<server>__<tool>`. */
export interface McpTool {
  readonly qualifiedName: string;
  readonly server: string;
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

/** Longest a server may take to connect and list its tools before the turn goes on without it. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Tool names for the model must fit `^[A-Za-z0-9_-]{1,64}$` (OpenAI's limit). */
const MAX_TOOL_NAME = 64;

/**
 * The MCP servers of one turn, connected with @modelcontextprotocol/sdk: Streamable HTTP first and
 * SSE as the fallback (or only the transport the harness names). A server that cannot be reached is
 * reported in `failures` and left out; the turn goes on with the others.
 */
export class McpConnections {
  private constructor(
    private readonly clients: Map<string, Client>,
    readonly tools: readonly McpTool[],
    readonly failures: readonly { server: string; message: string }[],
  ) {}

  static async open(servers: readonly McpServer[], signal: AbortSignal): Promise<McpConnections> {
    const clients = new Map<string, Client>();
    const tools: McpTool[] = [];
    const failures: { server: string; message: string }[] = [];
    await Promise.all(
      servers
        .filter((server) => server.enabled !== false)
        .map(async (server) => {
          try {
            const client = await connect(server, signal);
            clients.set(server.name, client);
            const listed = await client.listTools(undefined, { signal, timeout: CONNECT_TIMEOUT_MS });
            for (const tool of listed.tools) {
              const qualifiedName = `mcp__${server.name}__${tool.name}`;
              if (qualifiedName.length > MAX_TOOL_NAME || !/^[A-Za-z0-9_-]+$/.test(qualifiedName)) continue;
              tools.push({
                qualifiedName,
                server: server.name,
                name: tool.name,
                description: tool.description ?? `${tool.name} (MCP server ${server.name})`,
                inputSchema: tool.inputSchema as Record<string, unknown>,
              });
            }
          } catch (error) {
            failures.push({ server: server.name, message: describe(error, server) });
          }
        }),
    );
    return new McpConnections(clients, tools, failures);
  }

  /** Calls a tool; the result's text parts joined, or a readable error. */
  async call(tool: McpTool, input: Record<string, unknown>, signal: AbortSignal): Promise<string> {
    const client = this.clients.get(tool.server);
    if (!client) return toolError(`the MCP server "${tool.server}" is not connected`);
    const result = await client.callTool({ name: tool.name, arguments: input }, undefined, { signal });
    const content = Array.isArray(result.content) ? result.content : [];
    const text = content
      .map((part: { type: string; text?: string }) =>
        part.type === 'text' ? (part.text ?? '') : `[${part.type} content]`,
      )
      .join('\n');
    return result.isError ? toolError(text) : text;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.clients.values()].map((client) => client.close()));
  }
}

async function connect(server: McpServer, signal: AbortSignal): Promise<Client> {
  // The MCP SDK loads when a task first connects to a server: importing it up front was a sixth
  // of `arbiter serve`'s start-up (bench/decision-startup.mjs), for tasks that may never use MCP.
  const [{ Client }, { SSEClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const url = new URL(server.url);
  const headers: Record<string, string> = { ...server.headers };
  if (server.auth !== undefined) headers.authorization = `Bearer ${server.auth}`;
  const requestInit = { headers };
  const attempts: (() => Transport)[] = [];
  if (server.transport !== 'sse')
    attempts.push(() => new StreamableHTTPClientTransport(url, { requestInit }));
  if (server.transport !== 'http') attempts.push(() => new SSEClientTransport(url, { requestInit }));
  let lastError: unknown;
  for (const attempt of attempts) {
    const client = new Client({ name: 'arbiter-agent', version: '0.1.0' });
    try {
      await client.connect(attempt(), { signal, timeout: CONNECT_TIMEOUT_MS });
      return client;
    } catch (error) {
      lastError = error;
      await client.close().catch(() => undefined);
    }
  }
  throw lastError;
}

/**
 * A short cause for the warning event. The SDK's messages can quote the URL, whose query may carry a
 * token, so the URL is replaced by the server's name and every configured secret is scrubbed.
 */
function describe(error: unknown, server: McpServer): string {
  let message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  message = message.replaceAll(server.url, `<${server.name}>`);
  for (const secret of [server.auth, ...Object.values(server.headers ?? {})])
    if (secret !== undefined && secret.length >= 4) message = message.replaceAll(secret, '[redacted]');
  return message.slice(0, 200) || 'connection failed';
}
