import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  csvMappingFields,
  DEFAULT_BROKER_TIME,
  IMPORT_PREVIEW_TTL_MINUTES,
  type BrokerTimeName,
  type CsvMapping,
  type CsvMappingBody,
  type ImportConfirmBody,
  type ImportFormat,
  type ImportPreview,
  type Mode,
} from '@pipsense/contract';
import type { ImportMappingsTable } from '../../db/schema';
import { AppError, badRequest, notFound } from '../../lib/errors';
import type { SettingsService } from '../settings';
import type { TradingService } from '../trading';
import type { BrokerTime } from '../../domain/broker-time';
import { contractSizesWith, tradeInputs, type Payload } from './import-plan';
import { createImportRepository } from './import.repository';
import { ReportError, type CsvMappingSpec } from './parse/types';
import type { ReportHead, ReportParser } from './report-parser';
import { createOneAtATime } from '../../lib/one-at-a-time';
import type { ImportTables } from './tables';

export interface ImportServiceDeps {
  db: Kysely<ImportTables>;
  trading: Pick<TradingService, 'importedAccount' | 'storeImport'>;
  settings: Pick<SettingsService, 'adoptTradingPlatformIfUnset'>;
  parser: ReportParser;
  now: () => Date;
  /** After a confirmed import: the Overview's snapshots brought up to date (analytics `refreshSnapshots`). */
  afterImport?: (userId: string) => Promise<unknown>;
  log?: (err: unknown, context: Record<string, unknown>) => void;
}

export interface UploadRequest {
  bytes: Uint8Array;
  fileName: string | null;
  /** The server clock rule; `fixed` takes serverUtcOffset, which alone also means `fixed`. */
  brokerTime?: BrokerTimeName | undefined;
  serverUtcOffset?: string | undefined;
  mode?: Mode | undefined;
  mappingId?: string | undefined;
  /** An unsaved CSV mapping (the contract's csvMappingFields without the name). */
  mapping?: CsvMappingSpec | undefined;
}

/** What an account remembers from its last import (trading's importedAccount). */
interface Remembered {
  brokerTime: BrokerTimeName | null;
  utcOffset: string | null;
}

/**
 * The server clock an upload is read with (docs/decisions/012-metatrader-import.md, "Server time"): the upload's
 * rule (`fixed` with its offset, or with the account's remembered offset); its offset alone (`fixed`, as before
 * rules had names); UTC for a CSV whose times are UTC; the account's remembered rule; else DEFAULT_BROKER_TIME.
 */
function brokerTimeOf(
  request: Pick<UploadRequest, 'brokerTime' | 'serverUtcOffset'>,
  head: Pick<ReportHead, 'timesAreUtc'>,
  remembered: Remembered | null,
): BrokerTime {
  const rule = request.brokerTime ?? (request.serverUtcOffset === undefined ? undefined : 'fixed');
  if (rule === 'fixed') {
    const offset = request.serverUtcOffset ?? remembered?.utcOffset ?? undefined;
    if (offset === undefined)
      throw badRequest(
        'brokerTime fixed needs serverUtcOffset: send the offset of the broker server (e.g. +02:00), or pick ny-close-us or ny-close-eu.',
        'VALIDATION_FAILED',
      );
    return { rule, offset };
  }
  if (rule !== undefined) return { rule };
  if (head.timesAreUtc) return { rule: 'fixed', offset: '+00:00' };
  if (remembered?.brokerTime === 'fixed' && remembered.utcOffset)
    return { rule: 'fixed', offset: remembered.utcOffset };
  if (remembered?.brokerTime && remembered.brokerTime !== 'fixed') return { rule: remembered.brokerTime };
  return { rule: DEFAULT_BROKER_TIME };
}

export interface ConfirmResult {
  accountId: string;
  /** Trades (closed and open) added, updated and unchanged. */
  added: number;
  updated: number;
  unchanged: number;
  closedTrades: number;
  openTrades: number;
  /** Balance operations stored for the first time. */
  balanceOperationsAdded: number;
}

const mappingOf = (row: ImportMappingsTable): CsvMapping => ({
  ...(JSON.parse(row.mapping) as Omit<CsvMapping, 'id' | 'name' | 'createdAt' | 'updatedAt'>),
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * MetaTrader 4/5 and CSV import (docs/decisions/012-metatrader-import.md): a file is read on a worker thread into a
 * plan, shown as a preview and kept (table `imports`) until the trader confirms or cancels. Confirm hands the account
 * and the parsed trades to the trading module in one call (storeImport), which names them and stores them.
 * One upload per user is read at a time, and one confirmed import per user is saved at a time (409 IMPORT_BUSY).
 */
export function createImportService({ db, trading, settings, parser, now, afterImport, log }: ImportServiceDeps) {
  const repo = createImportRepository(db);
  const busy = createOneAtATime('IMPORT_BUSY');

  async function csvMapping(userId: string, request: UploadRequest): Promise<CsvMappingSpec | undefined> {
    if (request.mapping) return request.mapping;
    if (!request.mappingId) return undefined;
    const row = await repo.findMapping(userId, request.mappingId);
    if (!row)
      throw badRequest('mappingId: no saved CSV mapping with this id. Pick one of your mappings.', 'UNKNOWN_MAPPING');
    const { columns, dateOrder, decimalSeparator, timesAreUtc } = mappingOf(row);
    return { columns, dateOrder, decimalSeparator, timesAreUtc };
  }

  /** Reads and plans the file off the main thread; `decide` answers the plan's options once the account is known. */
  async function read(
    bytes: Uint8Array,
    mapping: CsvMappingSpec | undefined,
    decide: Parameters<ReportParser['read']>[2],
  ) {
    try {
      return await parser.read(bytes, mapping, decide);
    } catch (error) {
      if (error instanceof ReportError) {
        throw new AppError(400, error.code, error.message, {}, error.details);
      }
      throw error;
    }
  }

  /** Stores the previewed account and trades (new ones added, changed ones updated), then forgets the preview. */
  async function save(userId: string, importId: string, body: ImportConfirmBody = {}): Promise<ConfirmResult> {
    const row = await repo.findPending(userId, importId);
    if (!row) throw notFound('No import with this id is waiting for you. Upload the file again.');
    if (row.expires_at <= now().toISOString()) {
      await repo.deletePending(userId, importId);
      throw new AppError(
        410,
        'IMPORT_EXPIRED',
        `This preview is older than ${IMPORT_PREVIEW_TTL_MINUTES} minutes and was discarded. Upload the file again.`,
      );
    }
    const payload = JSON.parse(row.payload) as Payload;
    const corrections = new Map(Object.entries(body.contractSizes ?? {}).map(([s, v]) => [s.toUpperCase(), v]));
    const stored = await repo.contractSizes(userId);
    const sizes = contractSizesWith(new Map([...stored, ...corrections]));
    const mode = body.mode ?? payload.mode ?? 'demo';
    const openTrades = payload.openTrades ?? [];
    const result = await trading.storeImport(
      userId,
      { ...payload.account, mode },
      tradeInputs([...payload.trades, ...openTrades], sizes),
      payload.balanceOperations ?? [],
    );
    await repo.saveContractSizes(userId, corrections, now().toISOString());
    await repo.deletePending(userId, importId);
    await settings.adoptTradingPlatformIfUnset(userId, 'MetaTrader');
    const operationsChanged = result.balanceOperations.added + result.balanceOperations.updated > 0;
    if ((result.added + result.updated > 0 || operationsChanged) && afterImport)
      await afterImport(userId).catch((err: unknown) => log?.(err, { userId, step: 'overview snapshots' }));
    return {
      accountId: result.accountKey,
      added: result.added,
      updated: result.updated,
      unchanged: result.unchanged,
      closedTrades: payload.trades.length,
      openTrades: openTrades.length,
      balanceOperationsAdded: result.balanceOperations.added,
    };
  }

  return {
    /** Reads the file and keeps a preview; nothing of the trader's data changes. */
    async upload(
      userId: string,
      request: UploadRequest,
    ): Promise<{ importId: string; format: ImportFormat; preview: ImportPreview }> {
      if (request.bytes.byteLength === 0)
        throw badRequest(
          'The file is empty (0 bytes). Export the report again from MetaTrader and upload the saved file.',
          'EMPTY_FILE',
        );
      return busy.run(
        `read:${userId}`,
        'Another of your uploads is still being read. Wait for its preview, then upload the next file.',
        async () => {
          const mapping = await csvMapping(userId, request);
          let accountKey = '';
          const { head, planned } = await read(request.bytes, mapping, async (report) => {
            const account = await trading.importedAccount(userId, report.identity);
            accountKey = account.accountKey;
            const remembered = account.stored;
            return {
              brokerTime: brokerTimeOf(request, report, remembered),
              rememberedMode: request.mode ?? remembered?.mode ?? null,
              contractSizes: [...(await repo.contractSizes(userId))],
            };
          });
          const stamp = now();
          const importId = randomUUID();
          await repo.deleteExpired(stamp.toISOString());
          await repo.savePending({
            id: importId,
            user_id: userId,
            format: head.format,
            file_name: request.fileName,
            account_key: accountKey,
            summary: JSON.stringify(planned.preview),
            payload: planned.payload,
            created_at: stamp.toISOString(),
            expires_at: new Date(stamp.getTime() + IMPORT_PREVIEW_TTL_MINUTES * 60_000).toISOString(),
          });
          return { importId, format: head.format, preview: planned.preview };
        },
      );
    },

    /** Stores the previewed account and trades (new ones added, changed ones updated), then forgets the preview. */
    async confirm(userId: string, importId: string, body: ImportConfirmBody = {}): Promise<ConfirmResult> {
      return busy.run(
        `save:${userId}`,
        'Another of your imports is being saved. Wait for it to finish, then confirm this one.',
        () => save(userId, importId, body),
      );
    },
    /** Forgets a preview; nothing was stored. */
    async cancel(userId: string, importId: string): Promise<void> {
      if (!(await repo.deletePending(userId, importId)))
        throw notFound('No import with this id is waiting for you (it may have been confirmed or cancelled already).');
    },

    async mappings(userId: string): Promise<CsvMapping[]> {
      return (await repo.listMappings(userId)).map(mappingOf);
    },

    async saveMapping(userId: string, body: CsvMappingBody): Promise<CsvMapping> {
      const { name, ...mapping } = csvMappingFields.parse(body);
      const stamp = now().toISOString();
      const row = await repo.saveMapping({
        id: randomUUID(),
        user_id: userId,
        name,
        name_key: name.toLowerCase(),
        mapping: JSON.stringify(mapping),
        created_at: stamp,
        updated_at: stamp,
      });
      return mappingOf(row);
    },

    async deleteMapping(userId: string, id: string): Promise<void> {
      if (!(await repo.deleteMapping(userId, id))) throw notFound('No saved CSV mapping with this id.');
    },
  };
}
export type ImportService = ReturnType<typeof createImportService>;
