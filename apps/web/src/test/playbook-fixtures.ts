import {
  missedTrade as missedTradeSchema,
  playbook as playbookSchema,
  playbookReport,
  tradePlaybook as tradePlaybookSchema,
  type MissedTrade,
  type Playbook,
  type PlaybookFigures,
  type PlaybookReport,
  type TradePlaybook,
} from '@pipsense/contract';

/** The playbook routes as the fake API keys them. */
export const GET_PLAYBOOKS = 'GET /api/v1/playbook/get_playbooks';
export const CREATE_PLAYBOOK = 'POST /api/v1/playbook/create_playbook';
export const EDIT_PLAYBOOK = 'POST /api/v1/playbook/edit_playbook/:id';
export const DELETE_PLAYBOOK = 'POST /api/v1/playbook/delete_playbook/:id';
export const GET_REPORT = 'GET /api/v1/playbook/get_report/:id';
export const GET_TRADE_PLAYBOOK = 'GET /api/v1/playbook/get_trade_playbook/:accountId/:tradeId';
export const UPDATE_TRADE_PLAYBOOK = 'POST /api/v1/playbook/update_trade_playbook/:accountId/:tradeId';
export const BULK_ASSIGN = 'POST /api/v1/playbook/bulk_assign';
export const GET_MISSED = 'GET /api/v1/playbook/get_missed_trades';
export const CREATE_MISSED = 'POST /api/v1/playbook/create_missed_trade';
export const DELETE_MISSED = 'POST /api/v1/playbook/delete_missed_trade/:id';

const envelope = <T>(data: T) => ({ success: true, message: 'OK', data });

/** "London breakout": EUR_USD and GBP_USD in London, an Entry group of two rules and a Risk group of one. */
export function playbook(overrides: Partial<Playbook> = {}): Playbook {
  return playbookSchema.parse({
    id: 'pb-1',
    name: 'London breakout',
    description: 'Trade the **range break** after the open.\n\n<script>alert(1)</script>',
    instruments: ['EUR_USD', 'GBP_USD'],
    sessions: ['London'],
    groups: [
      {
        id: 'g-entry',
        name: 'Entry',
        rules: [
          { id: 'r-level', text: 'Price at a higher-timeframe level' },
          { id: 'r-close', text: 'Candle closes outside the range' },
        ],
      },
      { id: 'g-risk', name: 'Risk', rules: [{ id: 'r-risk', text: 'Risk at most 1 %' }] },
    ],
    defaultRiskPct: 1,
    counts: { trades: 5, reviewed: 4, followed: 3, missed: 2 },
    attachmentCount: 0,
    createdAt: '2026-11-01T09:00:00.000Z',
    updatedAt: '2026-11-01T09:00:00.000Z',
    ...overrides,
  });
}
export const playbooksBody = (list: Playbook[]) => envelope(list);
export const playbookBody = (p: Playbook) => envelope(p);

const usd = (amount: string) => ({ mode: 'single' as const, currency: 'USD', amount });

/**
 * Hand-checked, five closed USD trades reviewed. Followed all: +100 (+2R), +50 (+1R), -30 (-1R): win rate 66.7 %, net
 * +120.00, profit factor 150 / 30 = 5.00, expectancy 40.00 a trade, average R 2 / 3 = +0.67R. Broke some: +20
 * (+0.5R), -90 (-1.5R): 50 %, net -70.00, 20 / 90 = 0.22, expectancy -35.00, -0.50R. Together: 3 of 5 won (60 %),
 * net +50.00, 170 / 120 = 1.42, expectancy 10.00, R 1 / 5 = +0.20R; follow rate 3 of 5 = 60 %.
 */
const FOLLOWED: PlaybookFigures = {
  trades: 3,
  winRate: 66.6667,
  netPL: usd('120.00'),
  profitFactor: 5,
  expectancy: usd('40.00'),
  expectancyR: 0.6667,
  averageR: 0.6667,
};
const BROKE: PlaybookFigures = {
  trades: 2,
  winRate: 50,
  netPL: usd('-70.00'),
  profitFactor: 0.2222,
  expectancy: usd('-35.00'),
  expectancyR: -0.5,
  averageR: -0.5,
};
export function report(overrides: Partial<PlaybookReport> = {}): PlaybookReport {
  return playbookReport.parse({
    playbookId: 'pb-1',
    trades: 5,
    winRate: 60,
    netPL: usd('50.00'),
    profitFactor: 1.4167,
    expectancy: usd('10.00'),
    expectancyR: 0.2,
    averageR: 0.2,
    followRate: 60,
    reviewed: 5,
    rules: [
      { id: 'r-level', text: 'Price at a higher-timeframe level', retired: false, broken: 2 },
      { id: 'r-old', text: 'Wait for the news to pass', retired: true, broken: 1 },
      { id: 'r-risk', text: 'Risk at most 1 %', retired: false, broken: 0 },
    ],
    followedAll: FOLLOWED,
    brokeSome: BROKE,
    missed: { count: 2, wouldBeR: 3.5 },
    ...overrides,
  });
}
export const reportBody = (r: PlaybookReport) => envelope(r);

/** A missed EUR_USD long that hit its target at 2R. */
export function missed(overrides: Partial<MissedTrade> = {}): MissedTrade {
  return missedTradeSchema.parse({
    id: 'm-1',
    instrument: 'EUR_USD',
    side: 'long',
    time: '2026-11-03T08:30:00.000Z',
    playbookId: 'pb-1',
    entry: '1.0850',
    stop: '1.0820',
    target: '1.0910',
    note: 'Hesitated after a loss.',
    outcome: 'target',
    wouldBeR: 2,
    outcomeTime: '2026-11-03T11:00:00.000Z',
    outcomeNote: null,
    attachmentCount: 0,
    createdAt: '2026-11-03T12:00:00.000Z',
    updatedAt: '2026-11-03T12:00:00.000Z',
    ...overrides,
  });
}
export const missedBody = (list: MissedTrade[]) => envelope(list);
export const missedOne = (m: MissedTrade) => envelope(m);

/** A trade's stored review on "London breakout", one rule unticked and a retired rule it was reviewed against. */
export function tradeReview(overrides: Partial<TradePlaybook> = {}): TradePlaybook {
  return tradePlaybookSchema.parse({
    accountId: '101-004-27183640-001',
    tradeId: '5253',
    playbookId: 'pb-1',
    reviewed: true,
    followedRuleIds: ['r-level', 'r-old', 'r-risk'],
    followedAll: false,
    rules: [
      { id: 'r-level', text: 'Price at a higher-timeframe level', groupName: 'Entry', retired: false, followed: true },
      { id: 'r-close', text: 'Candle closes outside the range', groupName: 'Entry', retired: false, followed: false },
      { id: 'r-old', text: 'Wait for the news to pass', groupName: 'Entry', retired: true, followed: true },
      { id: 'r-risk', text: 'Risk at most 1 %', groupName: 'Risk', retired: false, followed: true },
    ],
    ...overrides,
  });
}
export const tradeReviewBody = (t: TradePlaybook) => envelope(t);
