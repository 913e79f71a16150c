import type { FileObject } from '@arbiter/uhp/wire';
import type { StoredFile } from '../storage/uhp-store.js';

export function presentFile(file: StoredFile): FileObject {
  return {
    id: file.id,
    object: 'file',
    ...(file.containerId ? { container_id: file.containerId } : {}),
    filename: file.filename,
    bytes: file.bytes,
    created_at: file.createdAt,
    purpose: file.purpose,
    media_type: file.mediaType,
  };
}
