import {
  balanceHistoryResponse,
  ruleDaysResponse,
  rulePresetsResponse,
  ruleSetsResponse,
  ruleStatusResponse,
  type BalancePoint,
  type DayRecord,
  type RulePreset,
  type RuleStatus,
  type StoredRuleSet,
} from '@pipsense/contract';

export const GET_PRESETS = 'GET /api/v1/rules/get_presets';
export const GET_RULE_SETS = 'GET /api/v1/rules/get_rule_sets';
export const CREATE_RULE_SET = 'POST /api/v1/rules/create_rule_set';
export const EDIT_RULE_SET = 'POST /api/v1/rules/edit_rule_set/:id';
export const DELETE_RULE_SET = 'POST /api/v1/rules/delete_rule_set/:id';
export const GET_STATUS = 'GET /api/v1/rules/get_status/:id';
export const GET_DAYS = 'GET /api/v1/rules/get_days/:id';
export const GET_ACCOUNTS = 'GET /api/v1/account/get_accounts';

/** FTMO 2-Step's challenge as the server lists it (defaults filled by the contract). */
const FTMO_PRESET: RulePreset = {
  id: 'ftmo-2step-challenge',
  name: 'FTMO 2-Step: Challenge',
  source: 'FTMO Trading Objectives (ftmo.com/en/trading-objectives)',
  assumptions: ['Daily loss measured on equity against the balance at 00:00 Prague (anchor: start_balance)'],
  rules: [],
};

const PERSONAL_PRESET: RulePreset = {
  id: 'personal',
  name: 'My own rules',
  source: 'The trader’s own rules',
  assumptions: [],
  rules: [],
};

export const presetsBody = (presets: RulePreset[] = [FTMO_PRESET, PERSONAL_PRESET]) =>
  rulePresetsResponse.parse({ success: true, message: 'Presets', data: presets });

/** A stored FTMO challenge on a 100,000 USD MetaTrader account. */
export function ruleSet(overrides: Partial<StoredRuleSet> = {}): StoredRuleSet {
  return {
    id: 'rs-1',
    accountId: 'mt5-5100231',
    name: 'FTMO challenge',
    preset: 'ftmo-2step-challenge',
    startTime: '2026-11-02T08:00:00.000Z',
    initialBalance: '100000',
    rules: [],
    alertThresholds: [50, 80, 100],
    emailAlerts: false,
    createdAt: '2026-11-02T08:00:00.000Z',
    updatedAt: '2026-11-02T08:00:00.000Z',
    ...overrides,
  };
}

export const ruleSetsBody = (sets: StoredRuleSet[]) =>
  ruleSetsResponse.parse({ success: true, message: 'Rule sets', data: sets });

/**
 * On track: 3,200.00 USD left today above a 96,800.00 floor (anchor 101,800.00), 8,000.00 above the 90,000.00
 * max-loss floor, 1,800.00 of a 10,000.00 target, 2 of 4 trading days.
 */
export function status(overrides: Partial<RuleStatus> = {}): RuleStatus {
  return {
    state: 'on_track',
    currency: 'USD',
    breach: null,
    passedAt: null,
    rules: [
      {
        kind: 'daily_loss',
        unit: 'money',
        limit: '5000.0000',
        used: '1800.0000',
        remaining: '3200.0000',
        percentUsed: '36.00',
        floor: '96800.0000',
        ok: true,
      },
      {
        kind: 'max_loss',
        unit: 'money',
        limit: '10000.0000',
        used: '2000.0000',
        remaining: '8000.0000',
        percentUsed: '20.00',
        floor: '90000.0000',
        ok: true,
      },
      {
        kind: 'profit_target',
        unit: 'money',
        limit: '10000.0000',
        used: '1800.0000',
        remaining: '8200.0000',
        percentUsed: '18.00',
        floor: null,
        ok: false,
      },
      {
        kind: 'min_trading_days',
        unit: 'days',
        limit: 4,
        used: 2,
        remaining: 2,
        percentUsed: '50.00',
        floor: null,
        ok: false,
      },
    ],
    today: {
      start: '2026-11-26T23:00:00.000Z',
      end: '2026-11-27T23:00:00.000Z',
      anchor: '101800.0000',
      floor: '96800.0000',
      remaining: '3200.0000',
    },
    tradingDays: { done: 2, required: 4 },
    equityBasis: 'samples+candles',
    ...overrides,
  };
}

export const statusBody = (data: RuleStatus = status()) =>
  ruleStatusResponse.parse({ success: true, message: 'Status', data });

/** A day record: a quiet day unless told. */
export function day(overrides: Partial<DayRecord> = {}): DayRecord {
  return {
    date: '2026-11-02',
    start: '2026-11-01T23:00:00.000Z',
    end: '2026-11-02T23:00:00.000Z',
    anchor: '100000.0000',
    floor: '95000.0000',
    lowestEquity: '99500.0000',
    closedPL: '0',
    tradingDay: false,
    breaks: [],
    breakTimes: [],
    startBalance: '100000.0000',
    endBalance: '100000.0000',
    endEquity: '100000.0000',
    equityKnown: true,
    passedAt: null,
    lines: [],
    ...overrides,
  };
}

export const daysBody = (days: DayRecord[]) => ruleDaysResponse.parse({ success: true, message: 'Days', data: days });

/** The money module's balance history, which each rule set's equity chart reads. */
export const GET_HISTORY = 'GET /api/v1/money/get_balance_history/:accountId';
export const historyBody = (points: BalancePoint[]) =>
  balanceHistoryResponse.parse({
    success: true,
    message: `${points.length} points`,
    data: { currency: 'USD', points, equityComplete: points.every((p) => p.equity !== null) },
  });
export const point = (time: string, balance: string, equity: string | null): BalancePoint => ({
  time,
  balance,
  equity,
  equitySource: equity === null ? null : 'candles',
});
