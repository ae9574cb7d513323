import type { TradeItem } from '@pipsense/contract';
import { EMPTY_CELL, formatDecimal } from '../../../components/data/format';

/**
 * docs/PRODUCT.md, Constants: trade price with 5 decimals, unrealized P/L with 4. Other prices follow the price, other
 * money the P/L.
 */
const PRICE_DECIMALS = 5;
const PL_DECIMALS = 4;

export const formatPrice = (value: string | null) => formatDecimal(value, PRICE_DECIMALS);
export const formatPL = (value: string | null) => formatDecimal(value, PL_DECIMALS);
/** Units are whole numbers that OANDA sends as strings; shown as sent. */
export const formatUnits = (value: string | null) => (value === null || value === '' ? EMPTY_CELL : value);

const STATE_LABELS: Record<string, { label: string; color: string }> = {
  OPEN: { label: 'Open', color: 'info' },
  CLOSED: { label: 'Closed', color: 'secondary' },
  CLOSE_WHEN_TRADEABLE: { label: 'Close when tradeable', color: 'warning' },
};

/** OANDA's trade state as a badge; an unknown state shows as sent. */
export function tradeState(state: string): { label: string; color: string } {
  return STATE_LABELS[state] ?? { label: state, color: 'light' };
}

/** Long when the units are positive, short when negative (OANDA's convention). */
export const direction = (trade: Pick<TradeItem, 'initialUnits'>) =>
  trade.initialUnits.trim().startsWith('-') ? 'Short' : 'Long';

/** '1 trade', '12 trades'. */
export const countOf = (count: number, word: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? word : `${word}s`}`;
