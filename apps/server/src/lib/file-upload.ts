import type { FastifyRequest } from 'fastify';
import { drainRequest } from './drain';
import { badRequest, type AppError } from './errors';

export interface FileUploadRules {
  /** The largest file taken (the multipart plugin's `fileSize` limit, registered by the route's plugin). */
  maxBytes: number;
  /** Room above `maxBytes` for the form's other fields and the framing: a longer declared body is refused unread. */
  overhead: number;
  /** A refused body is read and dropped up to these bounds, so that the client gets its answer (lib/drain.ts). */
  drain: { maxBytes: number; maxMs: number };
  /** What the file is, in the messages: 'image', 'file'. */
  noun: string;
  /** The answer when the request is not a multipart form. */
  notMultipart: string;
  /** The 413, with the declared size when the body said it. */
  tooLarge: (declaredBytes?: number) => AppError;
}

export interface FileUpload {
  /** The file of the field `file`; undefined when the form had none. */
  file: { bytes: Buffer; name: string } | undefined;
  /** The form's text fields. */
  fields: Record<string, string>;
}

/**
 * Reads a multipart form of one file, in the field named `file`, and a few text fields: the upload routes' one way of
 * taking a file. A body declared too long is refused before reading; a file past the limit stops the read at the
 * limit; any refusal drains the rest of the body first (SECURITY.md, Oversized bodies).
 */
export async function readFileUpload(request: FastifyRequest, rules: FileUploadRules): Promise<FileUpload> {
  const drain = () => drainRequest(request.raw, rules.drain);
  if (!request.isMultipart()) throw badRequest(rules.notMultipart, 'NO_FILE');
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > rules.maxBytes + rules.overhead) {
    await drain();
    throw rules.tooLarge(declared);
  }
  const oneFile = `Send one ${rules.noun}, in the field named "file"`;
  const fields: Record<string, string> = {};
  let file: FileUpload['file'];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          throw badRequest(`${oneFile}.`, 'NO_FILE');
        }
        // Stops reading at the limit: the part's stream errors past `maxBytes`.
        file = { bytes: await part.toBuffer(), name: part.filename };
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (error) {
    await drain();
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw rules.tooLarge();
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw badRequest(`${oneFile}, with at most a few form fields.`, 'NO_FILE');
    if (code === 'FST_PROTO_VIOLATION' || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
      throw badRequest(rules.notMultipart, 'NO_FILE');
    throw error;
  }
  return { file, fields };
}
