import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
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
export function sessionArchive(
  files: readonly StoredFile[],
  blobPath: (fileId: string) => string,
): { stream: Readable; dispose: () => void } {
  // yazl (CommonJS) is required on the first archive, not at every server start.
  const { ZipFile } = createRequire(import.meta.url)('yazl') as typeof yazl;
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const sources: fs.ReadStream[] = [];
  for (const file of files) {
    let fd: number;
    try {
      fd = fs.openSync(blobPath(file.id), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch {
      continue;
    }
    const size = fs.fstatSync(fd).size;
    const source = fs.createReadStream('', { fd, autoClose: true });
    source.on('error', (error) => output.destroy(error));
    sources.push(source);
    zip.addReadStream(source, archiveEntryName(file), { size });
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
