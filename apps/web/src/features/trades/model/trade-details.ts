import type { TradeItem } from '@pipsense/contract';
import { EMPTY_CELL, formatDateTime, formatInstrument, plClass } from '../../../components/data/format';
import type { Detail } from '../../../components/data/detail-list';
import { direction, formatPL, formatPrice, formatUnits, tradeState } from './trade-format';

/**
 * What the Trade Details modal lists: the table's fields, then Opened, Last Updated and Created At as local
 * date-times (docs/PRODUCT.md, Trade list), and the rest of what was synced from OANDA.
 */
export function tradeDetails(trade: TradeItem): Detail[] {
  // An imported MetaTrader trade also shows the symbol as the report printed it, its lots, and the
  // commission and swap its financing adds up.
  const mt = trade.platform === 'metatrader';
  return [
    { label: 'Trade ID', value: trade.tradeId },
    { label: 'Instrument', value: formatInstrument(trade.instrument) },
    ...(mt ? [{ label: 'Symbol', value: trade.symbol ?? EMPTY_CELL }] : []),
    { label: 'Direction', value: direction(trade) },
    { label: 'Price', value: formatPrice(trade.price) },
    ...(mt ? [{ label: 'Lots', value: trade.lots ?? EMPTY_CELL }] : []),
    { label: 'Initial Units', value: formatUnits(trade.initialUnits) },
    { label: 'Current Units', value: formatUnits(trade.currentUnits) },
    { label: 'Realized P/L', value: formatPL(trade.realizedPL), className: plClass(trade.realizedPL) },
    { label: 'Unrealized P/L', value: formatPL(trade.unrealizedPL), className: plClass(trade.unrealizedPL) },
    { label: 'Financing', value: formatPL(trade.financing), className: plClass(trade.financing) },
    ...(mt
      ? [
          { label: 'Commission', value: formatPL(trade.commission), className: plClass(trade.commission) },
          { label: 'Swap', value: formatPL(trade.swap), className: plClass(trade.swap) },
        ]
      : []),
    { label: 'State', value: tradeState(trade.state).label },
    { label: 'Close Price', value: formatPrice(trade.averageClosePrice) },
    { label: 'Stop Loss', value: formatPrice(trade.stopLossPrice) },
    { label: 'Take Profit', value: formatPrice(trade.takeProfitPrice) },
    { label: 'Trailing Stop Distance', value: formatPrice(trade.trailingStopDistance) },
    { label: 'Opened', value: formatDateTime(trade.openTime) },
    { label: 'Closed', value: formatDateTime(trade.closeTime) },
    { label: 'Last Updated', value: formatDateTime(trade.updatedAt) },
    { label: 'Created At', value: formatDateTime(trade.createdAt) },
    { label: 'Mode', value: trade.mode === 'live' ? 'Live' : 'Demo' },
    { label: 'Account', value: trade.accountId },
  ];
}
