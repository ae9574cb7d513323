import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ATTACHMENT_LIMITS,
  attachmentIdParams,
  attachmentResponse,
  attachmentsQuery,
  attachmentsResponse,
  attachmentUsageResponse,
  editAttachmentBody,
  uploadAttachmentFields,
  uploadAttachmentResponse,
} from '@pipsense/contract';
import { readFileUpload } from '../../lib/file-upload';
import { AppError, badRequest } from '../../lib/errors';
import { plural } from '../../lib/text';
import { userId } from '../../plugins/auth';
import { IMAGE_MAX_AGE_SECONDS, type AttachmentsService } from './attachments.service';

const LIMIT_MB = ATTACHMENT_LIMITS.fileBytes / 1024 / 1024;
const tooLarge = () =>
  new AppError(
    413,
    'FILE_TOO_LARGE',
    `The file is larger than ${LIMIT_MB} MB. Attach a smaller image, or a screenshot.`,
  );
/** Room for the form's other fields and the multipart framing around the file. */
const FORM_OVERHEAD = 64 * 1024;

const NO_FILE = 'Send the image as multipart/form-data in a field named "file", with the item it belongs to.';

/**
 * Images on trades, journal days, playbooks and missed trades (docs/review.md, Attachments; contract:
 * packages/contract/src/attachment.ts). The image routes are GETs with the bearer token like every other: the web
 * app fetches them with its header and shows blob URLs; no token ever goes in a URL.
 */
export const attachmentsRoutes: FastifyPluginAsyncZod<{ attachments: AttachmentsService }> = async (
  app,
  { attachments },
) => {
  app.addHook('onRequest', app.requireUser);
  await app.register(multipart, {
    limits: { fileSize: ATTACHMENT_LIMITS.fileBytes, files: 1, fields: 8, fieldSize: 1024, parts: 10 },
  });

  app.post(
    '/api/v1/attachment/upload',
    { schema: { response: { 200: uploadAttachmentResponse } } },
    async (request) => {
      const { file, fields } = await readFileUpload(request, {
        maxBytes: ATTACHMENT_LIMITS.fileBytes,
        overhead: FORM_OVERHEAD,
        drain: { maxBytes: 64 * 1024 * 1024, maxMs: 30_000 },
        noun: 'image',
        notMultipart: NO_FILE,
        tooLarge,
      });
      // The form's fields skip the schema validator, which refuses NUL for the JSON routes (PostgreSQL cannot store it).
      const withNul = Object.keys(fields).find((name) => fields[name]!.includes('\u0000'));
      if (withNul !== undefined)
        throw badRequest(`${withNul}: must not contain the NUL character (\\u0000)`, 'VALIDATION_FAILED');
      const parsed = uploadAttachmentFields.safeParse(fields);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = issue.path.join('.');
        throw badRequest(
          field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message,
          'VALIDATION_FAILED',
        );
      }
      if (!file || file.bytes.length === 0)
        throw badRequest('No image was sent: choose a PNG, JPEG or WebP file.', 'NO_FILE');
      const data = await attachments.upload(userId(request), parsed.data, file.bytes);
      return { success: true, message: `Image attached (${data.width}×${data.height}).`, data };
    },
  );

  app.get(
    '/api/v1/attachment/get_attachments',
    { schema: { querystring: attachmentsQuery, response: { 200: attachmentsResponse } } },
    async (request) => {
      const data = await attachments.list(userId(request), request.query);
      return { success: true, message: data.length === 0 ? 'No images yet' : plural(data.length, 'image'), data };
    },
  );

  for (const [path, part] of [
    ['get_attachment', 'image'],
    ['get_thumbnail', 'thumbnail'],
  ] as const)
    app.get(`/api/v1/attachment/${path}/:id`, { schema: { params: attachmentIdParams } }, async (request, reply) => {
      const { bytes, contentType } = await attachments.bytes(userId(request), request.params.id, part);
      return reply
        .header('content-type', contentType)
        .header('content-length', String(bytes.length))
        .header('cache-control', `private, max-age=${IMAGE_MAX_AGE_SECONDS}`)
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    });

  app.post(
    '/api/v1/attachment/edit_attachment/:id',
    { schema: { params: attachmentIdParams, body: editAttachmentBody, response: { 200: attachmentResponse } } },
    async (request) => {
      const data = await attachments.editCaption(userId(request), request.params.id, request.body.caption);
      return { success: true, message: data.caption ? 'Caption saved.' : 'Caption removed.', data };
    },
  );

  app.post(
    '/api/v1/attachment/delete_attachment/:id',
    { schema: { params: attachmentIdParams, response: { 200: attachmentResponse } } },
    async (request) => {
      const data = await attachments.remove(userId(request), request.params.id);
      return { success: true, message: 'Image deleted.', data };
    },
  );

  app.get(
    '/api/v1/attachment/get_usage',
    { schema: { response: { 200: attachmentUsageResponse } } },
    async (request) => {
      const data = await attachments.usage(userId(request));
      return {
        success: true,
        message: `${plural(data.count, 'image')} using ${(data.bytes / 1024 / 1024).toFixed(1)} MB of ${(data.quota / 1024 / 1024).toFixed(0)} MB`,
        data,
      };
    },
  );
};
