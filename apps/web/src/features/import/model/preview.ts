import {
  compareDecimals,
  groupDecimal,
  isDecimal,
  subtractDecimals,
  type ContractSize,
  type ImportFormat,
  type ImportPreview,
} from '@pipsense/contract';
import { formatDecimal } from '../../../components/data/format';

export const FORMAT_LABELS: Record<ImportFormat, string> = {
  'mt4-html': 'MetaTrader 4 Detailed Statement (HTML)',
  'mt5-html': 'MetaTrader 5 trade history report (HTML)',
  'mt5-xlsx': 'MetaTrader 5 trade history report (Excel)',
  csv: 'CSV',
};

/** Money of the report with two decimals and thousands grouped ('2,455.07'); '-' when missing. */
export const formatMoney = (value: string | null) =>
  isDecimal(value) ? groupDecimal(value, 2) : formatDecimal(value, 2);

export type NetCheck = { kind: 'matches' } | { kind: 'differs'; difference: string } | { kind: 'no-total' };

/** The net P/L PipSense computed against the report's own total, exactly (decimal strings, never floats). */
export function netProfitCheck(preview: Pick<ImportPreview, 'netProfit' | 'reportNetProfit'>): NetCheck {
  if (preview.reportNetProfit === null) return { kind: 'no-total' };
  if (compareDecimals(preview.netProfit, preview.reportNetProfit) === 0) return { kind: 'matches' };
  return { kind: 'differs', difference: subtractDecimals(preview.netProfit, preview.reportNetProfit) };
}

/** A contract size the trader typed: a decimal above 0, else the message to show. */
export function contractSizeProblem(value: string): string | null {
  const text = value.trim();
  if (!isDecimal(text)) return 'Enter a number such as 100000.';
  if (compareDecimals(text, '0') <= 0) return 'A contract size must be above 0.';
  return null;
}

/** The sizes the trader changed (by symbol as printed), for importConfirmBody; unchanged ones are not sent. */
export function changedContractSizes(
  sizes: readonly ContractSize[],
  edits: Readonly<Record<string, string>>,
): Record<string, string> {
  const changed: Record<string, string> = {};
  for (const size of sizes) {
    const edit = edits[size.symbol]?.trim();
    if (edit === undefined || !isDecimal(edit)) continue;
    if (compareDecimals(edit, size.contractSize) !== 0) changed[size.symbol] = edit;
  }
  return changed;
}
