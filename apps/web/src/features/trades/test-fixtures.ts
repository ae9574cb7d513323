import { tradeItem, tradeListResponse, type TradeItem, type TradeListResponse } from '@pipsense/contract';

/** A trade as the server sends it (shape checked against the contract), closed EUR/USD long by default. */
export function trade(overrides: Partial<TradeItem> = {}): TradeItem {
  return tradeItem.parse({
    tradeId: '5253',
    accountId: '101-004-27183640-001',
    mode: 'demo',
    instrument: 'EUR_USD',
    price: '1.17254',
    initialUnits: '10000',
    currentUnits: '0',
    realizedPL: '12.3400',
    unrealizedPL: null,
    financing: '-0.1523',
    state: 'CLOSED',
    openTime: '2025-10-02T08:15:03.123456789Z',
    closeTime: '2025-10-02T11:40:59.000000001Z',
    averageClosePrice: '1.17377',
    stopLossPrice: '1.17000',
    takeProfitPrice: '1.17500',
    trailingStopDistance: null,
    updatedAt: '2025-10-02T11:41:00.000Z',
    createdAt: '2025-10-02T09:00:00.000Z',
    platform: 'oanda',
    symbol: null,
    lots: null,
    commission: null,
    swap: null,
    ...overrides,
  });
}

/** The journal and risk fields of a list row, empty: a trade never annotated, without an initial stop. */
const unannotated = {
  note: '',
  rating: null,
  tags: [],
  initialRisk: null,
  rMultiple: null,
  mae: null,
  mfe: null,
  ruleBreaks: [],
};

/** One page of get_trade_history. */
export function tradePage(data: TradeItem[], pages = 1, total = data.length): TradeListResponse {
  const rows = data.map((t) => ({ ...unannotated, excursion: t.state === 'CLOSED' ? 'unavailable' : null, ...t }));
  return tradeListResponse.parse({ success: true, message: 'Trades fetched', data: rows, pages, total });
}
