import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
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

/** Streams one artifact's bytes into `directory`, returning the path written. */
export async function downloadArtifact(
  client: UhpClient,
  file: ProducedFile,
  directory: string,
): Promise<string> {
  const root = resolve(directory);
  await mkdir(root, { recursive: true });
  const target = join(root, localArtifactName(file.filename, file.fileId));
  if (!target.startsWith(root + sep)) throw new Error(`Refusing to write ${file.filename} outside ${root}.`);
  const response = await client.containers.content(file.containerId, file.fileId);
  if (!response.body) throw new Error(`The server sent no bytes for ${file.filename}.`);
  await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(target));
  return target;
}
