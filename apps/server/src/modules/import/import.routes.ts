import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  csvMappingBody,
  csvMappingFields,
  csvMappingIdParams,
  csvMappingListResponse,
  csvMappingResponse,
  envelope,
  IMPORT_MAX_BYTES,
  importConfirmBody,
  importConfirmResponse,
  importIdParams,
  importUploadFields,
  importUploadResponse,
  type ImportFormat,
} from '@pipsense/contract';
import { readFileUpload } from '../../lib/file-upload';
import { AppError, badRequest } from '../../lib/errors';
import { plural } from '../../lib/text';
import { userId } from '../../plugins/auth';
import type { CsvMappingSpec } from './parse/types';
import type { ImportService, UploadRequest } from './import.service';

const FORMAT_NAMES: Record<ImportFormat, string> = {
  'mt4-html': 'MetaTrader 4 statement',
  'mt5-html': 'MetaTrader 5 report',
  'mt5-xlsx': 'MetaTrader 5 Excel report',
  csv: 'CSV file',
};

const number = new Intl.NumberFormat('en-US');
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const tooLarge = (bytes?: number) =>
  new AppError(
    413,
    'FILE_TOO_LARGE',
    `${bytes ? `The file is ${megabytes(bytes)}; t` : 'T'}he limit is ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Export a shorter period from MetaTrader and import it in parts.`,
  );

/** Bytes of a refused upload read and dropped so that the client gets its 413 instead of a reset connection. */
const DRAIN_LIMIT = 512 * 1024 * 1024;

function csvMappingField(text: string | undefined): CsvMappingSpec | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest('mapping: send the CSV mapping as JSON text.', 'VALIDATION_FAILED');
  }
  const parsed = csvMappingFields.omit({ name: true }).safeParse(json);
  if (!parsed.success)
    throw badRequest(`mapping: ${parsed.error.issues[0]?.message ?? 'is not a CSV mapping'}`, 'VALIDATION_FAILED');
  return parsed.data;
}

/**
 * MetaTrader 4/5 and CSV import (docs/decisions/012-metatrader-import.md; contract: packages/contract/src/import.ts).
 */
export const importRoutes: FastifyPluginAsyncZod<{ imports: ImportService }> = async (app, { imports }) => {
  app.addHook('onRequest', app.requireUser);
  await app.register(multipart, {
    limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 8, fieldSize: 20_000, parts: 10 },
  });

  app.post('/api/v1/import/upload', { schema: { response: { 200: importUploadResponse } } }, async (request) => {
    const { file, fields } = await readFileUpload(request, {
      maxBytes: IMPORT_MAX_BYTES,
      overhead: 1024 * 1024,
      drain: { maxBytes: DRAIN_LIMIT, maxMs: 120_000 },
      noun: 'file',
      notMultipart: 'Send the report as multipart/form-data with one field named "file".',
      tooLarge,
    });
    if (!file) throw badRequest('No file was sent: choose a report file to import.', 'NO_FILE');
    const parsedFields = importUploadFields.safeParse(fields);
    if (!parsedFields.success) throw badRequest(parsedFields.error.issues[0]!.message, 'VALIDATION_FAILED');
    const { brokerTime, serverUtcOffset, mode, mappingId, mapping } = parsedFields.data;
    const upload: UploadRequest = {
      bytes: file.bytes,
      fileName: file.name || null,
      brokerTime,
      serverUtcOffset,
      mode,
      mappingId,
      mapping: csvMappingField(mapping),
    };
    const result = await imports.upload(userId(request), upload);
    const { account, closedTrades } = result.preview;
    return {
      success: true,
      message: `Read ${plural(closedTrades, 'closed trade')} from the ${FORMAT_NAMES[result.format]}${account.number ? ` of account ${account.number}` : ''}. Check the preview, then confirm the import.`,
      ...result,
    };
  });

  app.post(
    '/api/v1/import/confirm/:importId',
    { schema: { params: importIdParams, body: importConfirmBody, response: { 200: importConfirmResponse } } },
    async (request) => {
      const r = await imports.confirm(userId(request), request.params.importId, request.body);
      return {
        success: true,
        message: `Imported ${plural(r.closedTrades + r.openTrades, 'trade')}: ${number.format(r.added)} added, ${number.format(r.updated)} updated, ${number.format(r.unchanged)} unchanged${r.balanceOperationsAdded > 0 ? `; ${plural(r.balanceOperationsAdded, 'new balance operation')}` : ''}.`,
        accountId: r.accountId,
        added: r.added,
        updated: r.updated,
        unchanged: r.unchanged,
        balanceOperationsAdded: r.balanceOperationsAdded,
      };
    },
  );

  app.post(
    '/api/v1/import/cancel/:importId',
    { schema: { params: importIdParams, response: { 200: envelope } } },
    async (request) => {
      await imports.cancel(userId(request), request.params.importId);
      return { success: true, message: 'Import cancelled. Nothing was stored.' };
    },
  );

  app.get('/api/v1/import/mappings', { schema: { response: { 200: csvMappingListResponse } } }, async (request) => {
    const data = await imports.mappings(userId(request));
    return { success: true, message: data.length === 0 ? 'No saved mappings' : plural(data.length, 'mapping'), data };
  });

  app.post(
    '/api/v1/import/mappings',
    { schema: { body: csvMappingBody, response: { 200: csvMappingResponse } } },
    async (request) => {
      const data = await imports.saveMapping(userId(request), request.body);
      return { success: true, message: `Mapping "${data.name}" saved.`, data };
    },
  );

  app.delete(
    '/api/v1/import/mappings/:id',
    { schema: { params: csvMappingIdParams, response: { 200: envelope } } },
    async (request) => {
      await imports.deleteMapping(userId(request), request.params.id);
      return { success: true, message: 'Mapping deleted.' };
    },
  );
};
