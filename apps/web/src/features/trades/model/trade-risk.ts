import type { Excursion, TradeListItem } from '@pipsense/contract';
import type { Detail } from '../../../components/data/detail-list';
import { EMPTY_CELL } from '../../../components/data/format';
import { formatR } from '../../../components/data/format';
import { formatPrice } from './trade-format';

const NO_INITIAL_STOP = 'no initial stop';
const NOT_AVAILABLE = 'not available';
const PENDING = 'pending';

const pips = (value: number) => `${value.toFixed(1)} pips`;

/** One excursion in price, pips and R: '1.17100 · 15.4 pips · -0.50R' (R only with an initial stop). */
function excursionText(
  trade: Pick<TradeListItem, 'excursion' | 'initialRisk' | 'state'>,
  value: Excursion | null,
  sign: -1 | 1,
): string {
  if (trade.excursion === 'pending') return PENDING;
  if (trade.excursion === 'unavailable') return NOT_AVAILABLE;
  if (value === null)
    return trade.excursion === null && trade.state !== 'CLOSED' ? 'after the trade closes' : EMPTY_CELL;
  const r = value.r === null ? NO_INITIAL_STOP : formatR(sign * Math.abs(value.r));
  return `${formatPrice(value.price)} · ${pips(value.pips)} · ${r}`;
}

/**
 * The trade's risk in R: the first stop-loss and the distance to it, the result in R, and the worst (MAE)
 * and best (MFE) price reached while it was open — "no initial stop" where the trade never had one, "not available"
 * where no candles could be read, "pending" until they are.
 */
export function tradeRisk(trade: TradeListItem): Detail[] {
  const risk = trade.initialRisk;
  return [
    { label: 'Initial stop', value: risk ? formatPrice(risk.stopLossPrice) : NO_INITIAL_STOP },
    { label: 'Risk', value: risk ? `${formatPrice(risk.distance)} · ${pips(risk.pips)}` : NO_INITIAL_STOP },
    {
      label: 'R-multiple',
      value: risk ? formatR(trade.rMultiple) : NO_INITIAL_STOP,
      className:
        trade.rMultiple === null
          ? undefined
          : trade.rMultiple > 0
            ? 'text-success'
            : trade.rMultiple < 0
              ? 'text-danger'
              : undefined,
    },
    { label: 'MAE (worst)', value: excursionText(trade, trade.mae, -1) },
    { label: 'MFE (best)', value: excursionText(trade, trade.mfe, 1) },
  ];
}
