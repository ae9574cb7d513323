import { useQuery } from '@tanstack/react-query';
import type {
  BrokerTimeName,
  CsvMapping,
  CsvMappingBody,
  Envelope,
  ImportConfirmBody,
  ImportConfirmResponse,
  ImportUploadResponse,
} from '@pipsense/contract';
import { config } from '../../../config/env';
import { authRequest, authUpload, type UploadOptions } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

const base = () => `${config.metatrader ?? config.oanda}/api/v1/import`;

export interface UploadFields {
  file: File;
  /** The broker server's clock; '' sends none (the account's remembered rule, else the server's default). */
  brokerTime: BrokerTimeName | '';
  /** The offset of a `fixed` rule, '+02:00' (sent with `fixed` only). */
  serverUtcOffset: string;
  /** A saved CSV mapping ('' for none). */
  mappingId: string;
}

/**
 * POST import/upload (multipart): the fields first and the file last, so the server knows the offset and mapping
 * before it reads the file's bytes.
 */
export function uploadReport({ file, brokerTime, serverUtcOffset, mappingId }: UploadFields, options: UploadOptions) {
  const form = new FormData();
  if (brokerTime) form.append('brokerTime', brokerTime);
  if (brokerTime === 'fixed') form.append('serverUtcOffset', serverUtcOffset);
  if (mappingId) form.append('mappingId', mappingId);
  form.append('file', file, file.name);
  return authUpload<ImportUploadResponse>(`${base()}/upload`, form, options);
}

/** POST import/confirm/:importId: stores the previewed trades. */
export const confirmImport = (importId: string, body: ImportConfirmBody) =>
  authRequest<ImportConfirmResponse>('POST', `${base()}/confirm/${encodeURIComponent(importId)}`, { ...body });

/** POST import/cancel/:importId: the preview is dropped, nothing is stored. */
export const cancelImport = (importId: string) =>
  authRequest<Envelope>('POST', `${base()}/cancel/${encodeURIComponent(importId)}`);

/** POST import/mappings: saves (by name) how a CSV's columns read. */
export const saveMapping = (body: CsvMappingBody) =>
  authRequest<Envelope & { data: CsvMapping }>('POST', `${base()}/mappings`, { ...body });

/** GET import/mappings: the user's saved CSV mappings (asked for once a CSV is chosen). */
export const useMappings = (enabled: boolean) =>
  useQuery({
    enabled,
    queryKey: queryKeys.importMappings,
    queryFn: ({ signal }) =>
      authRequest<Envelope & { data: CsvMapping[] }>('GET', `${base()}/mappings`, undefined, signal).then(
        (b) => b.data,
      ),
  });
