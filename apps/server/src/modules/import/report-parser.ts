import type { ImportFormat, ImportPreview, Mode } from '@pipsense/contract';
import type { BrokerTime } from '../../domain/broker-time';
import { startWorker } from '../../lib/workers';
import type { CsvMappingSpec } from './parse/types';
import { ReportError } from './parse/types';

/** What the thread (report-parse.worker.ts) starts with. */
export interface ParseRequest {
  bytes: Uint8Array;
  csvMapping?: CsvMappingSpec | undefined;
}
/** What the thread sends once the report is read: enough to find the account and what it remembers. */
export interface ReportHead {
  format: ImportFormat;
  identity: { server: string; login: string };
  /** A CSV whose times are UTC already (ParsedReport.timesAreUtc). */
  timesAreUtc: boolean;
  closedTrades: number;
}
/** The main thread's answer to the head: how to plan (import-plan.ts planImport). */
export interface PlanRequest {
  brokerTime: BrokerTime;
  rememberedMode: Mode | null;
  /** The user's contract-size corrections, symbol (upper case) → units per lot. */
  contractSizes: Array<[string, string]>;
}
/** The plan as the upload keeps it: the preview, and the payload (import-plan.ts Payload) as JSON text. */
export interface PlannedReport {
  preview: ImportPreview;
  payload: string;
}
export type ParseReply =
  | { head: ReportHead; planned?: undefined; error?: undefined }
  | { planned: PlannedReport; head?: undefined; error?: undefined }
  | {
      head?: undefined;
      planned?: undefined;
      error: { code: string; message: string; details?: { columns: string[]; missing: string[] } | undefined };
    };

export interface ReportParserOptions {
  /** Reports read at the same time on this instance; more wait their turn (default 2: the machines have 2 cores). */
  concurrency?: number;
  /** A thread that has not answered by then is stopped (default 60 s). */
  timeoutMs?: number;
  /** Heap of one thread (default 768 MB: a 50 MB UTF-16 report needs about a third of it). */
  maxHeapMb?: number;
}

/**
 * Reads and plans reports on worker threads, a few at a time. Each report gets a fresh thread that parses it, asks
 * `decide` (on the main thread, which reads the database) how to plan it, plans it and ends, so the memory of a large
 * report is given back at once and a failing parse cannot disturb the next one. Neither the parse nor the plan runs
 * on the main thread. Failures of the file reject with ReportError (its code and message are the API's); a thread
 * that runs out of memory or time rejects with a ReportError saying so; a failure of `decide` (a 400 of the upload's
 * fields) stops the thread and rejects with it.
 */
export function createReportParser(options: ReportParserOptions = {}) {
  const concurrency = options.concurrency ?? 2;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxHeapMb = options.maxHeapMb ?? 768;
  let running = 0;
  const waiting: Array<() => void> = [];

  async function slot(): Promise<() => void> {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    return () => {
      running -= 1;
      waiting.shift()?.();
    };
  }

  function runThread(
    request: ParseRequest,
    decide: (head: ReportHead) => Promise<PlanRequest>,
  ): Promise<{ head: ReportHead; planned: PlannedReport }> {
    return new Promise((resolve, reject) => {
      const worker = startWorker(new URL('./report-parse.worker.ts', import.meta.url), {
        workerData: request,
        resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
      });
      let settled = false;
      let head: ReportHead | undefined;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
        void worker.terminate();
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new ReportError(
                'REPORT_TOO_COMPLEX',
                `Reading the report took longer than ${Math.round(timeoutMs / 1000)} s and was stopped. Export a shorter period and import it in parts.`,
              ),
            ),
          ),
        timeoutMs,
      );
      worker.on('message', (reply: ParseReply) => {
        if (reply.error) {
          const { code, message, details } = reply.error;
          return finish(() =>
            reject(code === 'INTERNAL' ? new Error(message) : new ReportError(code, message, details)),
          );
        }
        if (reply.planned) {
          const planned = reply.planned;
          return finish(() => resolve({ head: head!, planned }));
        }
        head = reply.head;
        decide(reply.head).then(
          (plan) => {
            if (!settled) worker.postMessage(plan);
          },
          (error: unknown) => finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
        );
      });
      worker.once('error', (error) =>
        finish(() =>
          reject(
            (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new ReportError(
                  'REPORT_TOO_COMPLEX',
                  'The report is too large to read in one go. Export a shorter period and import it in parts.',
                )
              : error,
          ),
        ),
      );
      worker.once('exit', (code) =>
        finish(() => reject(new Error(`the report parser stopped (exit code ${code}) without an answer`))),
      );
    });
  }

  return {
    /** Parses the file, plans it as `decide` says once the report's head is known, and answers both. */
    async read(
      bytes: Uint8Array,
      csvMapping: CsvMappingSpec | undefined,
      decide: (head: ReportHead) => Promise<PlanRequest>,
    ): Promise<{ head: ReportHead; planned: PlannedReport }> {
      const release = await slot();
      try {
        return await runThread({ bytes, csvMapping }, decide);
      } finally {
        release();
      }
    },
  };
}
export type ReportParser = ReturnType<typeof createReportParser>;
