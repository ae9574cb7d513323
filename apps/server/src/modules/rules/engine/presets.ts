import type { RuleInput, RulePresetId, RuleSetInput } from './types';

/**
 * The firms' published rules as data (docs/rules.md, Presets; the facts and their sources are in
 * docs/reference/prop-firms.md). Firms change their rules often: a preset is a starting point the trader checks
 * against the firm's current page, never a constant the engine relies on. Where the reference marks a rule
 * disputed or unknown, the choice is a param of the rule and is said in `assumptions`.
 */

export interface RulePresetInput {
  id: RulePresetId;
  name: string;
  source: string;
  assumptions: string[];
  rules: RuleInput[];
}

/** FTMO's day: midnight Prague (docs/reference/prop-firms.md, FTMO day boundary and daylight saving). */
const PRAGUE = { resetTime: '00:00', zone: 'Europe/Prague' } as const;
/** "Server midnight" and "5 PM EST": 17:00 New York (docs/reference/prop-firms.md §8.2, inferred). */
const SERVER_MIDNIGHT = { resetTime: '17:00', zone: 'America/New_York' } as const;
const serverMidnight = (quoted: string) =>
  `Day boundary: "${quoted}" read as 17:00 America/New_York, a server that follows US daylight saving (inferred; resetTime and zone).`;

type DailyLossParams = Extract<RuleInput, { kind: 'daily_loss' }>['params'];

/** A daily loss of `pct` % of I below the balance at the reset, on equity, checked at all times, "drops below". */
const dailyLoss = (
  pct: number,
  boundary: { resetTime: string; zone: string },
  params: Partial<DailyLossParams> = {},
  effect: 'fail' | 'pause_until_reset' = 'fail',
): RuleInput => ({
  kind: 'daily_loss',
  effect,
  params: {
    pct,
    allowanceBase: 'initial',
    anchor: 'start_balance',
    measure: 'equity',
    check: 'continuous',
    comparator: 'lt',
    ...boundary,
    ...params,
  },
});
const ftmoDaily = (pct: number) => dailyLoss(pct, PRAGUE);

const staticMaxLoss = (pct: number, payoutPolicy: 'keep_floor' | 'floor_from_balance' = 'keep_floor'): RuleInput => ({
  kind: 'max_loss',
  effect: 'fail',
  params: { pct, mode: 'static', lock: 'none', measure: 'equity', comparator: 'lt', payoutPolicy },
});

const target = (pct: number): RuleInput => ({ kind: 'profit_target', effect: 'fail', params: { pct } });

const FTMO_SOURCE = 'FTMO, Trading Objectives: https://ftmo.com/en/trading-objectives';

const ftmo2Step = (id: RulePresetId, name: string, targetPct: number): RulePresetInput => ({
  id,
  name,
  source: FTMO_SOURCE,
  assumptions: [],
  rules: [
    target(targetPct),
    ftmoDaily(5),
    staticMaxLoss(10),
    { kind: 'min_trading_days', effect: 'fail', params: { min: 4, rule: 'opened', ...PRAGUE } },
  ],
});

export const RULE_PRESETS: readonly RulePresetInput[] = [
  // docs/reference/prop-firms.md, FTMO 2-Step; §8.3 and §8.4 presets.
  ftmo2Step('ftmo-2step-challenge', 'FTMO 2-Step: FTMO Challenge', 10),
  ftmo2Step('ftmo-2step-verification', 'FTMO 2-Step: Verification', 5),
  // docs/reference/prop-firms.md, FTMO 1-Step.
  {
    id: 'ftmo-1step',
    name: 'FTMO 1-Step',
    source: FTMO_SOURCE,
    assumptions: [
      'Maximum loss: the end-of-day trailing floor has no lock, as the official text says; one third-party site says it locks at the initial balance (lock: at_initial).',
      'Best day: each day’s closed P/L net of commission and swap (not stated by FTMO).',
    ],
    rules: [
      target(10),
      ftmoDaily(3),
      {
        kind: 'max_loss',
        effect: 'fail',
        params: {
          pct: 10,
          mode: 'trail_eod_balance',
          lock: 'none',
          measure: 'equity',
          comparator: 'lt',
          payoutPolicy: 'reset_on_new_account',
          ...PRAGUE,
        },
      },
      { kind: 'consistency', effect: 'fail', params: { maxPct: 50, denominator: 'positive_days_sum', ...PRAGUE } },
    ],
  },
  // docs/reference/prop-firms.md, The5ers (High Stakes row); §8.3 presets.
  {
    id: 'the5ers-high-stakes',
    name: 'The5ers High Stakes (phase 1)',
    source:
      'The5ers help centre, maximum loss and daily loss in High Stakes: https://help.the5ers.com/what-is-the-maximum-loss-and-the-maximum-daily-loss-in-the-high-stakes-program',
    assumptions: [
      'Daily loss: 5% of the initial balance below max(start balance, start equity); the text also reads as 5% of the anchor itself (a $104,000 anchor: floor $99,000 here, $98,800 the other way; allowanceBase).',
      serverMidnight('5PM EST or 00:00 UTC+3'),
      'A swap booked at the reset itself is in the new day’s anchor (no firm documents it; bookingAtReset).',
      'The daily and maximum loss break when equity drops below the level (comparator lt; not stated).',
      'Profitable days (3, each ≥ 0.5% of the initial balance in closed positions) from a third-party quote of the help centre.',
      'Target 8% is phase 1 ("Classic"); phase 2 is 5%, and a 10%/5% variant exists (pct).',
    ],
    rules: [
      target(8),
      dailyLoss(5, SERVER_MIDNIGHT, { anchor: 'max_start_balance_equity', bookingAtReset: 'in_anchor' }),
      staticMaxLoss(10, 'floor_from_balance'),
      {
        kind: 'profitable_days',
        effect: 'fail',
        params: { min: 3, threshold: 0.5, pnlBasis: 'closed_on_day', ...SERVER_MIDNIGHT },
      },
    ],
  },
  // docs/reference/prop-firms.md, The5ers (Hyper Growth row): third-party sources only.
  {
    id: 'the5ers-hyper-growth',
    name: 'The5ers Hyper Growth (level 1)',
    source: 'The5ers FAQ: https://the5ers.com/about/faqs/ (rules from third-party pages, e.g. fundedwiki.com)',
    assumptions: [
      'Every rule comes from third-party pages; no official Hyper Growth page was found.',
      'Daily pause: 3% of the balance taken at the reset ("3% of the account balance taken at 00:00 GMT+3"), below that balance (allowanceBase: anchor).',
      serverMidnight('00:00 GMT+3'),
      'The pause and the stop-out break when equity drops below the level (comparator lt; not stated).',
    ],
    rules: [
      target(10),
      dailyLoss(3, SERVER_MIDNIGHT, { allowanceBase: 'anchor' }, 'pause_until_reset'),
      staticMaxLoss(6, 'floor_from_balance'),
    ],
  },
  // docs/reference/prop-firms.md, FundedNext (Stellar 2-Step row).
  {
    id: 'fundednext-stellar-2step',
    name: 'FundedNext Stellar 2-Step (phase 1)',
    source: 'FundedNext, CFD trading objectives: https://fundednext.com/en/general-rules/cfds/trading-objectives',
    assumptions: [
      'Daily anchor: the balance at the reset (not found whether it is max(balance, equity) when positions are held over the reset; anchor).',
      serverMidnight('00:00 server time, GMT+2 or GMT+3 in summer'),
      'Trading day: a day a trade is opened or closed, as the challenge terms say; the rules page says a trade with non-zero P/L (rule: nonzero_pnl).',
      'The daily and maximum loss break when equity drops below the level (comparator lt; not stated).',
      'Target 8% is phase 1; phase 2 is 5% (pct).',
    ],
    rules: [
      target(8),
      dailyLoss(5, SERVER_MIDNIGHT),
      staticMaxLoss(10),
      { kind: 'min_trading_days', effect: 'fail', params: { min: 5, rule: 'opened_or_closed', ...SERVER_MIDNIGHT } },
    ],
  },
  // docs/reference/prop-firms.md, Funding Pips.
  {
    id: 'fundingpips-2step',
    name: 'Funding Pips 2-Step (Student phase)',
    source: 'Funding Pips help centre, 2-Step Model: https://help.fundingpips.com/en/articles/9279477-2-step-model',
    assumptions: [
      'Daily loss: 5% of the initial balance below max(start balance, start equity), as a 2026 dossier computes it; a clone of the firm’s site takes 5% of the anchor itself (allowanceBase), and one third-party site follows intraday peak equity (anchor).',
      'Day boundary: 00:00 Europe/Prague ("00:00 CE(S)T/server" in the official text); a third-party site says 00:00 UTC+3 platform time (resetTime and zone).',
      'Equity must not reach the daily floor (comparator lte: "must not reach it").',
      'Maximum loss 10% static, from third-party sources that agree.',
      'Trading day: a day a position is opened (not stated; rule).',
      'Target 8% is the Student phase; the Practitioner phase is 5% (pct).',
    ],
    rules: [
      target(8),
      dailyLoss(5, PRAGUE, { anchor: 'max_start_balance_equity', comparator: 'lte' }),
      staticMaxLoss(10),
      { kind: 'min_trading_days', effect: 'fail', params: { min: 3, rule: 'opened', ...PRAGUE } },
    ],
  },
  // docs/reference/prop-firms.md, Trailing drawdown models (Topstep's firm text).
  {
    id: 'trailing-eod',
    name: 'End-of-day trailing drawdown, locking at the start (Topstep-like)',
    source: 'Topstep help centre, Maximum Loss Limit: https://help.topstep.com/en/articles/8284204',
    assumptions: [
      'The allowance is 4% of the initial balance (Topstep’s $2,000 on $50K); set amount for another account size.',
      'End of day at 17:00 America/New_York (Topstep’s trading-day times were not verified; resetTime and zone).',
      'Breach when equity drops below the floor (comparator lt).',
    ],
    rules: [
      {
        kind: 'max_loss',
        effect: 'fail',
        params: {
          pct: 4,
          mode: 'trail_eod_balance',
          lock: 'at_initial',
          lockOffset: '0',
          measure: 'equity',
          comparator: 'lt',
          payoutPolicy: 'keep_floor',
          ...SERVER_MIDNIGHT,
        },
      },
    ],
  },
  {
    id: 'personal',
    name: 'Personal risk rules',
    source: 'PipSense: the trader’s own rules (no firm)',
    assumptions: [
      'Day boundary 00:00 UTC: set zone to the trader’s own time zone.',
      'The daily loss is on closed P/L (measure: balance), so an import without a candle source decides it too.',
    ],
    rules: [
      dailyLoss(
        2,
        { resetTime: '00:00', zone: 'UTC' },
        { allowanceBase: 'anchor', measure: 'balance', comparator: 'lte' },
        'pause_until_reset',
      ),
      { kind: 'max_risk_per_trade', effect: 'pause_until_reset', params: { pct: 1, basis: 'balance' } },
      { kind: 'max_trades_per_day', effect: 'pause_until_reset', params: { max: 3 } },
      { kind: 'max_consecutive_losses', effect: 'pause_until_reset', params: { max: 3 } },
    ],
  },
];

/** The preset of an id (every id of the contract's RULE_PRESET_IDS has one). */
export function presetOf(id: RulePresetId): RulePresetInput {
  const preset = RULE_PRESETS.find((p) => p.id === id);
  if (!preset) throw new RangeError(`unknown preset: ${id}`);
  return preset;
}

/** A rule set from a preset, for one account and phase. */
export function ruleSetFromPreset(
  id: RulePresetId,
  phase: { accountId: string; startTime: string; initialBalance: string; name?: string },
): RuleSetInput {
  const preset = presetOf(id);
  return {
    accountId: phase.accountId,
    name: phase.name ?? preset.name,
    preset: id,
    startTime: phase.startTime,
    initialBalance: phase.initialBalance,
    rules: structuredClone(preset.rules),
  };
}
