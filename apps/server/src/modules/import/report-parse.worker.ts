/*
 * Reads one uploaded report and plans it on a thread of its own (report-parser.ts starts it through
 * lib/workers.ts), so that neither a 50 MB statement's parse nor the plan of its 100,000 trades holds the event loop
 * that serves other users. Two rounds: it parses and sends the report's head (format, account identity: small);
 * the main thread answers with what the database remembers (the server clock rule, the mode, contract sizes); the
 * thread plans, sends the preview and the payload as JSON text, then ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parseReport } from './parse';
import { ReportError } from './parse/types';
import type { ParsedReport } from './parse/types';
import { accountIdentity, contractSizesWith, planImport, type Payload } from './import-plan';
import type { ParseReply, ParseRequest, PlanRequest } from './report-parser';

const port = parentPort!;
const { bytes, csvMapping } = workerData as ParseRequest;

const failure = (error: unknown): ParseReply =>
  error instanceof ReportError
    ? { error: { code: error.code, message: error.message, details: error.details } }
    : { error: { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) } };

let report: ParsedReport | undefined;
try {
  report = parseReport(bytes, csvMapping ? { csvMapping } : {});
  port.postMessage({
    head: {
      format: report.format,
      identity: accountIdentity(report),
      timesAreUtc: report.timesAreUtc === true,
      closedTrades: report.closedTrades.length,
    },
  } satisfies ParseReply);
} catch (error) {
  port.postMessage(failure(error));
}

if (report) {
  const parsed = report;
  port.once('message', (request: PlanRequest) => {
    let reply: ParseReply;
    try {
      const plan = planImport(parsed, {
        brokerTime: request.brokerTime,
        rememberedMode: request.rememberedMode,
        sizes: contractSizesWith(new Map(request.contractSizes)),
      });
      const payload: Payload = {
        format: parsed.format,
        mode: plan.mode,
        account: plan.account,
        trades: plan.trades,
        openTrades: plan.openTrades,
        balanceOperations: plan.balanceOperations,
      };
      reply = { planned: { preview: plan.preview, payload: JSON.stringify(payload) } };
    } catch (error) {
      reply = failure(error);
    }
    port.postMessage(reply);
    port.close();
  });
}
