import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, extname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ProducedFile, UhpClient } from '@arbiter/uhp';

/**
 * A safe local name for an artifact: the agent chooses filenames, so only the last path segment is
 * kept and anything that could climb out of the output directory or hide the file is replaced.
 */
export function localArtifactName(filename: string, fileId: string): string {
  const name = basename(filename.replaceAll('\\', '/')).replace(/[\x00-\x1f]/g, '_');
  if (name === '' || name === '.' || name === '..') return fileId;
  return name.startsWith('.') ? `_${name}` : name;
}

/** `report.md`, then `report-2.md`, `report-3.md`, …: the n-th local name for one wanted name. */
export function numberedName(name: string, n: number): string {
  if (n === 1) return name;
  const extension = extname(name);
  return `${name.slice(0, name.length - extension.length)}-${n}${extension}`;
}

/**
 * The output directory of one command. Artifacts from different folders of the workspace can share a
 * last segment (`a/report.md`, `b/report.md`), so each file gets a name of its own and nothing is
 * ever overwritten: an existing file keeps its bytes and the artifact is numbered instead. The same
 * file (by id) is written once.
 */
export class ArtifactDirectory {
  readonly root: string;
  readonly #written = new Map<string, string>();

  constructor(directory: string) {
    this.root = resolve(directory);
  }

  /** Streams one artifact's bytes into the directory; returns its path, or null when already saved. */
  async save(client: UhpClient, file: ProducedFile): Promise<string | null> {
    if (this.#written.has(file.fileId)) return null;
    await mkdir(this.root, { recursive: true });
    const response = await client.containers.content(file.containerId, file.fileId);
    if (!response.body) throw new Error(`The server sent no bytes for ${file.filename}.`);
    const wanted = localArtifactName(file.filename, file.fileId);
    for (let n = 1; ; n++) {
      const target = join(this.root, numberedName(wanted, n));
      if (!target.startsWith(this.root + sep))
        throw new Error(`Refusing to write ${file.filename} outside ${this.root}.`);
      try {
        // `wx`: the name is claimed atomically, so an existing file is never replaced.
        const sink = createWriteStream(target, { flags: 'wx' });
        await new Promise<void>((ready, fail) => {
          sink.once('open', () => ready());
          sink.once('error', fail);
        });
        await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), sink);
        this.#written.set(file.fileId, target);
        return target;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }
}
