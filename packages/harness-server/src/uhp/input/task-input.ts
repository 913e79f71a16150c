import type { InputItem } from '@arbiter/uhp/wire';
import { invalidInput, UhpFailure } from '../uhp-error.js';

/** A file handed in with a task, decoded but not yet written anywhere. */
export interface IncomingFile {
  readonly filename: string;
  readonly mediaType: string;
  readonly data: Buffer;
  /** Set when the file came from `POST /v1/files`. */
  readonly fileId: string | null;
}

export interface TaskInput {
  readonly text: string;
  readonly files: IncomingFile[];
  /** The input as stored for `input_items`: inline data replaced by the stored file's id. */
  readonly items: Record<string, unknown>[];
}

/** Standard or URL-safe alphabet, optional padding, whitespace allowed (RFC 2397 payloads are often wrapped). */
const BASE64_PAYLOAD = /^[A-Za-z0-9+/_\-\s]*={0,2}\s*$/;

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;

function safeFilename(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[^A-Za-z0-9._ -]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 128);
  return cleaned || fallback;
}

function decodeDataUrl(url: string, param: string, maxBytes: number): { mediaType: string; data: Buffer } {
  const match = DATA_URL.exec(url);
  if (!match) throw invalidInput('file_data must be a data URL (data:<type>;base64,<data>).', param);
  const parameters = match[2] ?? '';
  const payload = match[3] ?? '';
  let data: Buffer;
  if (parameters.includes(';base64')) {
    // Buffer.from skips characters outside the alphabet silently; a damaged payload is refused instead.
    if (!BASE64_PAYLOAD.test(payload) || payload.replace(/=+$/, '').length % 4 === 1)
      throw invalidInput('The base64 payload of the data URL is malformed.', param);
    data = Buffer.from(payload, 'base64');
  } else {
    try {
      data = Buffer.from(decodeURIComponent(payload));
    } catch {
      throw invalidInput('The data URL holds a malformed percent-escape.', param);
    }
  }
  if (data.length > maxBytes)
    throw new UhpFailure('file_too_large', `A file may be at most ${maxBytes} bytes.`, {
      param,
      detail: { max_bytes: maxBytes },
    });
  return { mediaType: match[1] || 'application/octet-stream', data };
}

/**
 * Reads `input` (a string, or messages / content parts with `input_text`, `input_file` and
 * `input_image`) into the text and files a runtime needs. Unknown part types are kept in the stored
 * items and otherwise ignored, as the specification asks of unknown fields.
 */
export function readTaskInput(
  input: string | InputItem[],
  options: { maxFileBytes: number; uploadedFile: (fileId: string) => IncomingFile | undefined },
): TaskInput {
  if (typeof input === 'string') {
    return {
      text: input,
      files: [],
      items: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }],
    };
  }
  const texts: string[] = [];
  const files: IncomingFile[] = [];
  const readPart = (part: Record<string, unknown>, param: string): Record<string, unknown> => {
    switch (part.type) {
      case 'input_text':
      case 'text':
        if (typeof part.text !== 'string')
          throw invalidInput('input_text needs a string text.', `${param}.text`);
        texts.push(part.text);
        return part;
      case 'input_file':
      case 'input_image': {
        const fileId = typeof part.file_id === 'string' ? part.file_id : null;
        const inline =
          typeof part.file_data === 'string'
            ? part.file_data
            : typeof part.image_url === 'string'
              ? part.image_url
              : null;
        if (fileId) {
          const uploaded = options.uploadedFile(fileId);
          if (!uploaded)
            throw new UhpFailure('file_not_found', 'No file with that id exists in your scope.', {
              param: `${param}.file_id`,
            });
          files.push(uploaded);
          return part;
        }
        if (!inline) throw invalidInput(`${String(part.type)} needs file_id or an inline data URL.`, param);
        if (!inline.startsWith('data:'))
          throw invalidInput(
            'Only data URLs and uploaded file ids are accepted; remote URLs are not fetched.',
            param,
          );
        const decoded = decodeDataUrl(
          inline,
          `${param}.${part.file_data ? 'file_data' : 'image_url'}`,
          options.maxFileBytes,
        );
        const filename = safeFilename(
          typeof part.filename === 'string' ? part.filename : undefined,
          `input-${files.length + 1}`,
        );
        files.push({ filename, mediaType: decoded.mediaType, data: decoded.data, fileId: null });
        const { file_data: _data, image_url: _url, ...rest } = part;
        return { ...rest, filename };
      }
      default:
        return part;
    }
  };
  const items = input.map((item, index) => {
    const param = `input[${index}]`;
    const record = item as Record<string, unknown>;
    if (typeof record.content === 'string') {
      if (record.role === undefined || record.role === 'user') texts.push(record.content);
      return { type: 'message', ...record };
    }
    if (Array.isArray(record.content)) {
      const content = record.content.map((part, partIndex) => {
        if (typeof part !== 'object' || part === null)
          throw invalidInput('A content part must be an object.', `${param}.content[${partIndex}]`);
        return readPart(part as Record<string, unknown>, `${param}.content[${partIndex}]`);
      });
      return { type: 'message', ...record, content };
    }
    return readPart(record, param);
  });
  if (texts.length === 0 && files.length === 0)
    throw invalidInput('input holds no text and no files.', 'input');
  return { text: texts.join('\n'), files, items };
}

export { safeFilename };
