import type { TradeFilterQuery } from '@pipsense/contract';
import { authFetch, httpError, networkError, withQuery } from '../../../lib/api';
import { browserTimeZone } from '../../../lib/time-zone';

/** The file name the server suggests (Content-Disposition), else a dated default. */
function exportFileName(disposition: string | null, now = new Date()): string {
  const match = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  if (match?.[1]) return decodeURIComponent(match[1]);
  return `pipsense-trades-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * GET {trading host}/api/v1/trade/export_trades?…filters: the filtered list as CSV, fetched with the bearer token
 * (a plain link could not send it) and handed to the browser as a download.
 */
export async function downloadTradesCsv(base: string, filters: TradeFilterQuery): Promise<string> {
  let response: Response;
  try {
    // The local-time columns are in the trader's zone (the server's default is UTC).
    response = await authFetch(
      withQuery(`${base}/api/v1/trade/export_trades`, { ...filters, timeZone: browserTimeZone() ?? 'UTC' }),
    );
  } catch (error) {
    throw networkError(error);
  }
  if (response.status !== 200) {
    const body: unknown = await response.json().catch(() => undefined);
    throw httpError(response.status, body);
  }
  const blob = await response.blob();
  const name = exportFileName(response.headers.get('Content-Disposition'));
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the browser's download; the address can go once this task ends.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return name;
}
