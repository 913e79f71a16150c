import type { FastifyRequest } from 'fastify';
import type { HarnessService } from './harness/harness-service.js';
import type { ProcessSandbox } from './sandbox/process-sandbox.js';
import type { UhpDataLayout } from './storage/data-layout.js';
import type { UhpStore } from './storage/uhp-store.js';
import type { EventLog } from './streaming/event-log.js';
import type { SseWriter, StreamLimits } from './streaming/sse-writer.js';
import type { TaskRunner } from './task-runner.js';
import type { TaskLimits, TaskService } from './task-service.js';

/** What every route family of the UHP plugin works with. */
export interface UhpServices {
  readonly store: UhpStore;
  readonly events: EventLog;
  readonly runner: TaskRunner;
  readonly tasks: TaskService;
  readonly harnesses: HarnessService;
  readonly layout: UhpDataLayout;
  readonly limits: TaskLimits;
  /** Path of a LibreOffice `soffice` binary for PDF previews, or null when none is installed. */
  readonly previewConverter: string | null;
  /** The process sandbox every program started for a tenant runs in (task programs, previews). */
  readonly sandbox: ProcessSandbox;
  readonly keepAliveMs: number;
  readonly streamLimits: StreamLimits;
  /** Streams currently open, so shutdown can end them instead of waiting for clients. */
  readonly openStreams: Set<SseWriter>;
  /** Re-checks the credential a request came with (null under `--no-auth`), for long-lived streams. */
  credentialCheckOf(request: FastifyRequest): (() => boolean | Promise<boolean>) | null;
  /** Absolute base URL of the UHP API as the client reached it (`http://host:port/api/harness`). */
  baseUrlOf(request: FastifyRequest): string;
}
