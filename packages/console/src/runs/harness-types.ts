/** The UHP API's shapes as the console reads them (docs/uhp-server.md). */

export const HARNESS_API = '/api/harness/v1';
export const WORKSPACE_TOOLS = ['write', 'read', 'list', 'shell'] as const;

export interface Harness {
  id: string;
  name: string;
  base: string;
  defaultModel: string;
  systemPrompt: string | null;
  disabledTools: string[];
  skills: unknown[];
  mcpServers: unknown[];
  createdAt: number;
}

export interface OutputItem {
  id?: string;
  type: string;
  role?: string;
  content?: { type: string; text?: string }[];
  summary?: { type: string; text?: string }[];
  name?: string;
  arguments?: string;
  call_id?: string;
  output?: string;
}

export interface UhpResponse {
  id: string;
  status: string;
  model: string;
  output: OutputItem[];
  error: { code?: string; message: string } | null;
  metadata: Record<string, unknown> & { session_id?: string };
}

export interface SessionSummary {
  id: string;
  harness_id: string;
  container_id: string;
  title: string | null;
  status: 'running' | 'idle';
  turn_count: number;
  last_response_id: string | null;
  created_at: number;
}

export interface Turn {
  index: number;
  response_id: string;
  status: string;
  input: unknown;
  output_text: string;
}

export interface SessionFile {
  id: string;
  container_id?: string;
  filename: string;
  bytes: number;
  media_type: string;
}

export interface Share {
  token: string;
  url: string;
}
