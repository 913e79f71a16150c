import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomically } from '@arbiter/storage';
import { fileObjectSchema } from '@arbiter/uhp/wire';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { safeFilename } from '../input/task-input.js';
import { mediaTypeOf } from '../media-type.js';
import { isObjectId, newObjectId } from '../object-id.js';
import { findExecutable } from '../sandbox/executable-lookup.js';
import type { StoredFile } from '../storage/uhp-store.js';
import { invalidInput, notFound, UhpFailure } from '../uhp-error.js';
import { Workspace } from '../workspace/workspace.js';
import { presentFile } from './present-file.js';
import { documentsOnly } from './uhp-request-validator.js';
import {
  BEARER,
  containerFileParams,
  errorAnswers,
  fileBytesContent,
  fileParams,
} from './uhp-route-schemas.js';

const tags = ['uhp: files'];

/**
 * `POST /v1/files`: one part named `file`. Documented here and read by the handler, which streams
 * it with the size limit and checks the field itself (Fastify does not parse multipart bodies).
 */
const uploadBody = {
  content: {
    'multipart/form-data': {
      schema: documentsOnly(
        z.object({
          file: z.any().meta({ type: 'string', format: 'binary', description: 'The file (25 MiB at most)' }),
        }),
      ),
    },
  },
};

const PREVIEW_TIMEOUT_MS = 60_000;
/** A converted PDF larger than this is not sent (`preview_failed`): it is held in memory to send. */
const PREVIEW_MAX_BYTES = 100 * 1024 * 1024;

export interface FileRoutesOptions {
  /** Path of `soffice`; `undefined` looks it up on PATH, `null` disables previews. */
  readonly previewConverter?: string | null | undefined;
}

/** RFC 6266 header: an ASCII fallback plus the exact UTF-8 name. */
function contentDisposition(filename: string): string {
  const base = path.posix.basename(filename);
  const ascii = base.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`;
}

/**
 * The multipart parser reports a body it cannot read (no boundary, a truncated part) as a plain
 * error without a status; that is the client's fault, so it becomes a 400. Limits and our own
 * refusals keep their status.
 */
function malformedMultipart(error: unknown): unknown {
  if (UhpFailure.isInstance(error)) return error;
  const status = (error as { statusCode?: number }).statusCode;
  if (typeof status === 'number' && status < 500) return error;
  return invalidInput(
    `The multipart body is malformed: ${(error as Error).message ?? 'unreadable'}.`,
    'file',
  );
}

/** Uploads, artifact downloads (raw, nosniff) and PDF previews. Ids never leave their container. */
export const fileRoutes = fastifyPlugin<FileRoutesOptions>(
  async (fastify: FastifyInstance, options: FileRoutesOptions) => {
    const { uhpStore: store, uhpLayout: layout, uhpSandbox: sandbox } = fastify;
    const { maxFileBytes } = fastify.uhpTasks.limits;
    let previewConverter: string | null | undefined;
    // Looked up on the first preview, not at start-up: finding it runs a shell.
    const converterPath = () => {
      previewConverter ??=
        options.previewConverter === undefined ? findExecutable('soffice') : options.previewConverter;
      return previewConverter;
    };

    const app = fastify.withTypeProvider<ZodTypeProvider>();
    type ContainerFileRequest = Pick<FastifyRequest, 'principal'> & {
      params: { container_id: string; file_id: string };
    };

    const containerFile = async (request: ContainerFileRequest): Promise<StoredFile> => {
      const principalId = request.principal!.id;
      const { container_id: containerId, file_id: fileId } = request.params;
      // Only our own id formats reach storage: `../`, `%2f` and absolute paths never match them.
      if (!isObjectId(containerId, 'cntr') || !isObjectId(fileId, 'file'))
        throw notFound('file_not_found', 'file');
      const session = await store.getSessionByContainer(principalId, containerId);
      const file = session && (await store.getContainerFile(containerId, fileId));
      if (!file || file.principalId !== principalId) throw notFound('file_not_found', 'file');
      return file;
    };

    // The blob is opened first and streamed from that descriptor: a session deleted meanwhile still
    // yields the whole file, and a blob already gone is a 404, not a failed stream.
    const sendBytes = (reply: FastifyReply, blob: string, mediaType: string, filename: string) => {
      let fd: number;
      try {
        fd = fs.openSync(blob, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
      } catch {
        throw notFound('file_not_found', 'file');
      }
      const size = fs.fstatSync(fd).size;
      return reply
        .type(mediaType)
        .header('content-disposition', contentDisposition(filename))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-length', size)
        .send(fs.createReadStream('', { fd, autoClose: true }));
    };

    const upload = {
      schema: {
        operationId: 'uhpUploadFile',
        summary: 'Upload a file for a later task’s `input_file.file_id`',
        tags,
        security: BEARER,
        body: uploadBody,
        response: { 200: fileObjectSchema.describe('The stored file'), ...errorAnswers([413]) },
      },
    };
    app.post('/v1/files', upload, async (request) => {
      const principalId = request.principal!.id;
      if (!request.isMultipart())
        throw invalidInput('Upload a file as multipart/form-data in the field "file".', 'file');
      let part: Awaited<ReturnType<typeof request.file>>;
      let data: Buffer;
      try {
        part = await request.file({ limits: { fileSize: maxFileBytes, files: 1 } });
        if (part?.fieldname !== 'file')
          throw invalidInput('The multipart body needs a field named "file".', 'file');
        // toBuffer() throws FST_REQ_FILE_TOO_LARGE past the limit, which the error handler turns into 413.
        data = await part.toBuffer();
      } catch (error) {
        throw malformedMultipart(error);
      }
      const id = newObjectId('file');
      const filename = safeFilename(part.filename, 'upload');
      writeFileAtomically(layout.fileBlob(id), (temporary) =>
        fs.writeFileSync(temporary, data, { flag: 'wx' }),
      );
      const file: StoredFile = {
        id,
        principalId,
        containerId: null,
        sessionId: null,
        responseId: null,
        filename,
        mediaType:
          part.mimetype && part.mimetype !== 'application/octet-stream'
            ? part.mimetype
            : mediaTypeOf(filename),
        bytes: data.length,
        purpose: 'user_data',
        createdAt: Math.floor(Date.now() / 1000),
      };
      await store.insertFile(file);
      return presentFile(file);
    });

    const readFile = {
      schema: {
        operationId: 'uhpGetFile',
        summary: 'Read an uploaded file’s record',
        tags,
        security: BEARER,
        params: fileParams,
        response: { 200: fileObjectSchema.describe('The file'), ...errorAnswers([404]) },
      },
    };
    app.get('/v1/files/:file_id', readFile, async (request) => {
      const id = request.params.file_id;
      const file = isObjectId(id, 'file') ? await store.getFile(request.principal!.id, id) : undefined;
      if (!file) throw notFound('file_not_found', 'file');
      return presentFile(file);
    });

    const download = {
      schema: {
        operationId: 'uhpDownloadFile',
        summary: 'Download an artifact: its raw bytes, as an attachment',
        tags,
        security: BEARER,
        params: containerFileParams,
        response: {
          200: {
            description:
              'The bytes with the file’s own type (from its extension), `nosniff` and a `sandbox` CSP',
            content: fileBytesContent('application/octet-stream', 'The file'),
          },
          ...errorAnswers([404]),
        },
      },
    };
    app.get('/v1/containers/:container_id/files/:file_id/content', download, async (request, reply) => {
      const file = await containerFile(request);
      return sendBytes(reply, layout.fileBlob(file.id), file.mediaType, file.filename);
    });

    const preview = {
      schema: {
        operationId: 'uhpPreviewFile',
        summary: 'A PDF preview of an artifact (LibreOffice in the sandbox for other types)',
        tags,
        security: BEARER,
        params: containerFileParams,
        response: {
          200: { description: 'The PDF', content: fileBytesContent('application/pdf', 'A PDF') },
          ...errorAnswers([404, 501, 502]),
        },
      },
    };
    app.get('/v1/containers/:container_id/files/:file_id/pdf', preview, async (request, reply) => {
      const file = await containerFile(request);
      const pdfName = `${path.posix.basename(file.filename).replace(/\.[^.]*$/, '')}.pdf`;
      if (file.mediaType === 'application/pdf')
        return sendBytes(reply, layout.fileBlob(file.id), 'application/pdf', pdfName);
      const previewConverter = converterPath();
      if (!previewConverter)
        throw new UhpFailure(
          'preview_unavailable',
          'PDF previews need LibreOffice (soffice), which is not installed on this server.',
        );
      // The converter reads a file a tenant wrote, so it runs as any tenant program does: in the
      // process sandbox, with a scratch directory as its only writable place, and its output is read
      // without following whatever it left there.
      const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-preview-'));
      try {
        const input = path.join(workDir, `input${path.extname(file.filename).slice(0, 16)}`);
        fs.copyFileSync(layout.fileBlob(file.id), input);
        const converter = fs.realpathSync(previewConverter);
        // A client that goes away ends the conversion.
        const gone = new AbortController();
        reply.raw.once('close', () => gone.abort());
        const result = await sandbox.run(
          {
            argv: [converter, '--headless', '--convert-to', 'pdf', '--outdir', workDir, input],
            workspace: workDir,
            purpose: 'command',
            readOnlyPaths: [converter],
            network: false,
          },
          { signal: gone.signal, timeoutMs: PREVIEW_TIMEOUT_MS, outputCapBytes: 16 * 1024 },
        );
        if (result.exitCode !== 0) throw new Error('the converter failed');
        const pdf = await new Workspace(workDir).readFile('input.pdf', PREVIEW_MAX_BYTES);
        if (pdf.size > PREVIEW_MAX_BYTES) throw new Error('the preview is over its size limit');
        return reply
          .type('application/pdf')
          .header('content-disposition', contentDisposition(pdfName))
          .header('x-content-type-options', 'nosniff')
          .send(pdf.bytes);
      } catch {
        throw new UhpFailure('preview_failed', 'This file could not be converted to PDF.');
      } finally {
        fs.rmSync(workDir, { recursive: true, force: true });
      }
    });
  },
  {
    name: 'arbiter-uhp-file-routes',
    fastify: '5.x',
    decorators: { fastify: ['uhpStore', 'uhpLayout', 'uhpSandbox', 'uhpTasks'] },
  },
);
