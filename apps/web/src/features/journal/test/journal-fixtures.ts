import {
  calendarResponse,
  dayResponse,
  tagsResponse,
  type CalendarDay,
  type JournalDay,
  type TagItem,
  type TradeListItem,
} from '@pipsense/contract';

export const CALENDAR = '/api/v1/journal/get_calendar';
export const GET_DAY = 'GET /api/v1/journal/get_day/:date';
export const UPDATE_DAY = 'POST /api/v1/journal/update_day/:date';
export const GET_TAGS = 'GET /api/v1/journal/get_tags';

const day = (date: string, netPL: string, trades: number, hasEntry = false): CalendarDay => ({
  date,
  netPL,
  currency: 'USD',
  byCurrency: trades > 0 ? [{ currency: 'USD', amount: netPL }] : [],
  trades,
  wins: Number(netPL) > 0 ? trades : 0,
  losses: Number(netPL) < 0 ? trades : 0,
  hasEntry,
  ruleBreaks: 0,
});

/**
 * October 2025 (the 1st is a Wednesday): the largest day is the 8th's -200.00, so -200 is step 4, +120.10 step 3
 * (0.6 → ceil 2.4), +30.05 step 1; week 2 (6–12 Oct) nets 120.10 + 30.05 - 200.00 = -49.85.
 */
export const OCTOBER: CalendarDay[] = [
  day('2025-10-01', '10.5', 1),
  day('2025-10-06', '120.10', 2),
  day('2025-10-07', '30.05', 1, true),
  day('2025-10-08', '-200.00', 3),
  day('2025-10-15', '0', 1),
  day('2025-10-20', '0', 0, true),
];

const listed = (date: string, parts: Array<[string, string]>, trades: number): CalendarDay => ({
  date,
  netPL: null,
  currency: null,
  byCurrency: parts.map(([currency, amount]) => ({ currency, amount })),
  trades,
  wins: 0,
  losses: 0,
  hasEntry: false,
  ruleBreaks: 0,
});

/**
 * March 2025 of a JPY and a USD account, listed per currency (no rates): the 14th -45,000 JPY and +1,200.50 USD, the
 * 17th -337,286.63 JPY; the month -382,286.63 JPY and +1,200.50 USD.
 */
export const MARCH_LISTED: CalendarDay[] = [
  listed(
    '2025-03-14',
    [
      ['JPY', '-45000'],
      ['USD', '1200.50'],
    ],
    2,
  ),
  listed('2025-03-17', [['JPY', '-337286.63']], 1),
];

export const calendarBody = (month: string, days: CalendarDay[], timeZone = 'UTC') =>
  calendarResponse.parse({ success: true, message: 'Calendar', data: { month, timeZone, days } });

export function trade(overrides: Partial<TradeListItem> = {}): TradeListItem {
  return {
    tradeId: '1042',
    accountId: '101-004-1234567-001',
    mode: 'demo',
    instrument: 'EUR_USD',
    price: '1.17010',
    initialUnits: '-1000',
    currentUnits: '0',
    realizedPL: '-80.2500',
    unrealizedPL: null,
    financing: '0.0000',
    state: 'CLOSED',
    openTime: '2025-10-08T09:00:00.000000000Z',
    closeTime: '2025-10-08T11:30:00.000000000Z',
    averageClosePrice: '1.17812',
    stopLossPrice: null,
    takeProfitPrice: null,
    trailingStopDistance: null,
    updatedAt: '2025-10-08T11:30:00.000Z',
    createdAt: '2025-10-08T09:00:00.000Z',
    platform: 'oanda',
    symbol: null,
    lots: null,
    commission: null,
    swap: null,
    note: '',
    rating: null,
    tags: [],
    initialRisk: null,
    rMultiple: null,
    mae: null,
    mfe: null,
    excursion: null,
    ruleBreaks: [],
    playbookId: null,
    reviewed: false,
    followedAll: null,
    attachmentCount: 0,
    ...overrides,
  };
}

export const dayBody = (entry: Partial<JournalDay> & { date: string }, trades: TradeListItem[] = []) =>
  dayResponse.parse({
    success: true,
    message: 'Day',
    data: { note: '', mood: null, updatedAt: null, ...entry, trades },
  });

export const tag = (id: string, name: string, kind: TagItem['kind'], trades = 0): TagItem => ({
  id,
  name,
  kind,
  trades,
  createdAt: '2025-10-01T00:00:00.000Z',
  updatedAt: '2025-10-01T00:00:00.000Z',
});

export const TAGS: TagItem[] = [
  tag('t-breakout', 'Breakout', 'setup', 12),
  tag('t-pullback', 'Pullback', 'setup', 4),
  tag('t-fomo', 'FOMO', 'mistake', 3),
  tag('t-calm', 'Calm', 'emotion', 0),
];

export const tagsBody = (tags: TagItem[] = TAGS) => tagsResponse.parse({ success: true, message: 'Tags', data: tags });
