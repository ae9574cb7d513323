import type { MissedOutcome, PlaybookFigures } from '@pipsense/contract';
import { EMPTY_CELL, formatMoneyFigure, formatR } from '../../../components/data/format';

/*
 * How a playbook report's figures read (docs/review.md, The playbook report): the server computes them all; the
 * screen only writes them out.
 */

/** A rate the server sends as a percent number (80 = 80 %), one decimal: '62.5 %'; '-' without one. */
export function formatRate(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return EMPTY_CELL;
  return `${Number(value.toFixed(1)).toLocaleString('en-US')} %`;
}

/** Profit factor with two decimals; '-' without losses (or with currencies listed apart). */
export const formatFactor = (value: number | null) =>
  value === null || !Number.isFinite(value) ? EMPTY_CELL : value.toFixed(2);

/** The rows both columns of "Followed all rules" and "Broke at least one" show, in order. */
export function figureRows(f: PlaybookFigures): Array<{ label: string; value: string }> {
  return [
    { label: 'Trades', value: f.trades.toLocaleString('en-US') },
    { label: 'Win rate', value: formatRate(f.winRate) },
    { label: 'Net P/L', value: f.netPL ? formatMoneyFigure(f.netPL) : EMPTY_CELL },
    { label: 'Profit factor', value: formatFactor(f.profitFactor) },
    { label: 'Expectancy', value: f.expectancy ? formatMoneyFigure(f.expectancy) : EMPTY_CELL },
    { label: 'Expectancy (R)', value: formatR(f.expectancyR) },
    { label: 'Average R', value: formatR(f.averageR) },
  ];
}

/** A missed trade's outcome as a badge. */
export const OUTCOME_BADGE: Record<MissedOutcome, { text: string; color: string }> = {
  target: { text: 'Target hit', color: 'success' },
  stop: { text: 'Stop hit', color: 'danger' },
  open: { text: 'Still open', color: 'info' },
  unavailable: { text: 'Unavailable', color: 'secondary' },
};
