import { startWorker } from '../../lib/workers';
import type { CsvMappingSpec, ParsedReport } from './parse/types';
import { ReportError } from './parse/types';

/** What the parse thread (report-parse.worker.ts) starts with and answers. */
export interface ParseRequest {
  bytes: Uint8Array;
  csvMapping?: CsvMappingSpec | undefined;
}
export type ParseReply =
  | { report: ParsedReport; error?: undefined }
  | {
      report?: undefined;
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
 * Parses reports on worker threads, a few at a time. Each report gets a fresh thread that ends after answering,
 * so the memory of a large report is given back at once and a failing parse cannot disturb the next one.
 * Failures of the file reject with ReportError (its code and message are the API's); a thread that runs out of
 * memory or time rejects with a ReportError saying so.
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

  function runThread(request: ParseRequest): Promise<ParsedReport> {
    return new Promise((resolve, reject) => {
      const worker = startWorker(new URL('./report-parse.worker.ts', import.meta.url), {
        workerData: request,
        resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
      });
      let settled = false;
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
      worker.once('message', (reply: ParseReply) =>
        finish(() => {
          if (reply.report) return resolve(reply.report);
          const { code, message, details } = reply.error;
          reject(code === 'INTERNAL' ? new Error(message) : new ReportError(code, message, details));
        }),
      );
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
    async parse(bytes: Uint8Array, csvMapping?: CsvMappingSpec): Promise<ParsedReport> {
      const release = await slot();
      try {
        return await runThread({ bytes, csvMapping });
      } finally {
        release();
      }
    },
  };
}
export type ReportParser = ReturnType<typeof createReportParser>;
