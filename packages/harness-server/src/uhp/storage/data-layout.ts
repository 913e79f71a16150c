import fs from 'node:fs';
import path from 'node:path';

/**
 * Where UHP keeps bytes beneath the data directory. Only server-generated ids (checked by
 * `isObjectId`) are joined into these paths, never names a client chose.
 */
export class UhpDataLayout {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'uhp');
    fs.mkdirSync(path.join(this.root, 'sessions'), { recursive: true, mode: 0o700 });
    fs.mkdirSync(path.join(this.root, 'files'), { recursive: true, mode: 0o700 });
  }

  sessionDir(sessionId: string): string {
    return path.join(this.root, 'sessions', sessionId);
  }

  workspaceDir(sessionId: string): string {
    return path.join(this.sessionDir(sessionId), 'workspace');
  }

  /** The hash-chained log of every tool-gate verdict of every harness run. */
  gateAuditLog(): string {
    return path.join(this.root, 'gate-audit.jsonl');
  }

  fileBlob(fileId: string): string {
    return path.join(this.root, 'files', fileId);
  }
}
