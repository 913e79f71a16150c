import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type yazl from 'yazl';
import type { StoredFile } from '../storage/uhp-store.js';

/**
 * The name of a file inside a session archive: under its own id folder (later versions of a path do
 * not overwrite earlier ones), every segment made safe for unzip tools on any system. A name the
 * agent chose (`..\..\x.bat`, `C:x`, control characters) can neither leave the archive's folder when
 * extracted nor make the archive unbuildable.
 */
export function archiveEntryName(file: Pick<StoredFile, 'id' | 'filename'>): string {
  const segments = file.filename
    .split('/')
    .map((segment) => segment.replace(/[\\:\x00-\x1f\x7f]/g, '_'))
    .map((segment) => (/^\.+$/.test(segment) ? segment.replace(/\./g, '_') : segment))
    .filter((segment) => segment !== '');
  return [file.id, ...(segments.length > 0 ? segments : ['file'])].join('/');
}

/**
 * A zip of a session's files, streamed. Every blob is opened before the first byte is sent, so a
 * session deleted while the archive downloads still yields the files it had (an open descriptor
 * keeps an unlinked file readable); a blob already gone is left out. Every error of the zip writer or
 * a file stream ends the download instead of reaching the process as an unhandled `'error'` event.
 */
export async function sessionArchive(
  files: readonly StoredFile[],
  blobPath: (fileId: string) => string,
): Promise<{ stream: Readable; dispose: () => void }> {
  // yazl (CommonJS) is required on the first archive, not at every server start.
  const { ZipFile } = createRequire(import.meta.url)('yazl') as typeof yazl;
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // Opened on the thread pool, a batch at a time: a session of thousands of artifacts does not hold
  // the event loop while its blobs are opened.
  const opened: ({ file: StoredFile; fd: number; size: number } | null)[] = [];
  for (let start = 0; start < files.length; start += OPEN_BATCH)
    opened.push(
      ...(await Promise.all(
        files.slice(start, start + OPEN_BATCH).map(async (file) => {
          let fd: number;
          try {
            fd = await openFd(blobPath(file.id), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
          } catch {
            return null;
          }
          return { file, fd, size: (await fstatFd(fd)).size };
        }),
      )),
    );
  const sources: fs.ReadStream[] = [];
  for (const entry of opened) {
    if (!entry) continue;
    const source = fs.createReadStream('', { fd: entry.fd, autoClose: true });
    source.on('error', (error) => output.destroy(error));
    sources.push(source);
    zip.addReadStream(source, archiveEntryName(entry.file), { size: entry.size });
  }
  zip.on('error', (error: Error) => output.destroy(error));
  zip.end();
  return {
    stream: output,
    // A download that stops early leaves streams yazl never reached; their descriptors close here.
    dispose: () => {
      for (const source of sources) source.destroy();
    },
  };
}

const OPEN_BATCH = 16;
const openFd = promisify(fs.open);
const fstatFd = promisify(fs.fstat);
