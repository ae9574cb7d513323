/*
 * Reads one uploaded report on a thread of its own (report-parser.ts starts it through lib/workers.ts), so that a
 * 50 MB statement never holds the event loop that serves other users. Replies once, then the thread ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parseReport } from './parse';
import { ReportError } from './parse/types';
import type { ParseReply, ParseRequest } from './report-parser';

const { bytes, csvMapping } = workerData as ParseRequest;
let reply: ParseReply;
try {
  reply = { report: parseReport(bytes, csvMapping ? { csvMapping } : {}) };
} catch (error) {
  reply =
    error instanceof ReportError
      ? { error: { code: error.code, message: error.message, details: error.details } }
      : { error: { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) } };
}
parentPort!.postMessage(reply);
