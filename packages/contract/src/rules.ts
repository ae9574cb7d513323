import { z } from 'zod';
import { decimalString, envelope, isoTime } from './common';
import { divideDecimals, isDecimal, multiplyDecimals } from './decimal';

/*
 * Prop-firm challenges and personal risk rules: a rule set, its rules and what the rule engine answers (its status,
 * one record per day, the breaks of trade-level rules). docs/rules.md explains each rule and its params; the
 * firms' published rules they model are in docs/reference/prop-firms.md (§8, "What a tracker computes").
 */

export const RULE_KINDS = [
  'daily_loss',
  'max_loss',
  'profit_target',
  'min_trading_days',
  'consistency',
  'profitable_days',
  'max_risk_per_trade',
  'max_trades_per_day',
  'max_consecutive_losses',
  'no_weekend_holding',
] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/** Each rule kind as the trader reads it, on My Rules, the Overview and in the assistant's answers. */
export const RULE_LABELS: Record<RuleKind, string> = {
  daily_loss: 'Daily loss',
  max_loss: 'Max loss',
  profit_target: 'Profit target',
  min_trading_days: 'Trading days',
  consistency: 'Best-day share',
  profitable_days: 'Profitable days',
  max_risk_per_trade: 'Risk per trade',
  max_trades_per_day: 'Trades per day',
  max_consecutive_losses: 'Losses in a row',
  no_weekend_holding: 'No weekend holding',
};

/** `fail`: the account fails at the first break; `pause_until_reset`: trading stops until the next daily reset. */
const RULE_EFFECTS = ['fail', 'pause_until_reset'] as const;

export const RULE_PRESET_IDS = [
  'ftmo-2step-challenge',
  'ftmo-2step-verification',
  'ftmo-1step',
  'the5ers-high-stakes',
  'the5ers-hyper-growth',
  'fundednext-stellar-2step',
  'fundingpips-2step',
  'trailing-eod',
  'personal',
] as const;
export type RulePresetId = (typeof RULE_PRESET_IDS)[number];

const listed = (values: readonly string[]) => values.join(', ');

const oneOf = <const T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { error: `${field} must be one of ${listed(values)}` });

/** A percent as a number (5 = 5 %), from 0 to 100, with at most 4 decimals (so that it is exact in minor units). */
const percent = (field: string) =>
  z
    .number({ error: `${field} must be a percent as a number, e.g. 5 for 5 %` })
    .refine(Number.isFinite, { message: `${field} must be a percent as a number, e.g. 5 for 5 %` })
    .refine((v) => v >= 0, { message: `${field} must be a percent of 0 or more` })
    .refine((v) => v <= 100, { message: `${field} must be a percent of at most 100` })
    .refine((v) => Math.abs(v * 10_000 - Math.round(v * 10_000)) < 1e-6, {
      message: `${field} must have at most 4 decimals`,
    });

/** An amount of the account currency: an exact decimal string of 0 or more. */
const amount = (field: string) =>
  z
    .string({ error: `${field} must be an amount as a decimal string, e.g. "5000"` })
    .regex(/^\d+(\.\d+)?$/, `${field} must be an amount of 0 or more as a decimal string, e.g. "5000"`);

const count = (field: string) =>
  z
    .number({ error: `${field} must be a whole number of 0 or more` })
    .int(`${field} must be a whole number of 0 or more`)
    .min(0, `${field} must be a whole number of 0 or more`);

const RESET_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The daily reset's local time, "HH:MM" (00:00 … 23:59). */
const resetTime = z
  .string({ error: 'resetTime must be a local time "HH:MM", e.g. "00:00" or "17:00"' })
  .regex(RESET_TIME, 'resetTime must be a local time "HH:MM", e.g. "00:00" or "17:00"');

const isIanaZone = (value: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

/** The zone of the daily reset: an IANA name (never a fixed offset: days are 23 or 25 hours long on switch dates). */
const zone = z
  .string({ error: 'zone must be an IANA time zone such as Europe/Prague' })
  .min(1, 'zone must be an IANA time zone such as Europe/Prague')
  .refine(isIanaZone, { message: 'zone must be an IANA time zone such as Europe/Prague' });

/** The day boundary a rule may name; every rule of a set that names one names the same (the set has one). */
const boundary = { resetTime: resetTime.optional(), zone: zone.optional() };

/** A rule sized as a percent of the initial balance or as a fixed amount: one of the two. */
const sized = { pct: percent('pct').optional(), amount: amount('amount').optional() };
const oneSize = (kind: RuleKind) => (params: { pct?: number; amount?: string }, ctx: z.RefinementCtx) => {
  if ((params.pct === undefined) === (params.amount === undefined))
    ctx.addIssue({ code: 'custom', path: ['pct'], message: `${kind} needs pct or amount (one of the two)` });
};

/** docs/reference/prop-firms.md §8.3. */
const DAILY_LOSS_ANCHORS = [
  'start_balance',
  'start_equity',
  'max_start_balance_equity',
  'intraday_peak_equity',
] as const;
const dailyLossParams = z
  .object({
    ...sized,
    allowanceBase: oneOf('allowanceBase', ['initial', 'anchor']).default('initial'),
    anchor: oneOf('anchor', DAILY_LOSS_ANCHORS).default('start_balance'),
    measure: oneOf('measure', ['equity', 'balance']).default('equity'),
    check: oneOf('check', ['continuous', 'end_of_day']).default('continuous'),
    comparator: oneOf('comparator', ['lt', 'lte']).default('lt'),
    /**
     * A booking at the reset instant itself (a swap at server midnight): in the new day's anchor, or after it
     * (counted against the new day). No firm documents it (docs/reference/prop-firms.md §8.9, item 5).
     */
    bookingAtReset: oneOf('bookingAtReset', ['in_anchor', 'after_anchor']).default('in_anchor'),
    ...boundary,
  })
  .superRefine(oneSize('daily_loss'));

/** docs/reference/prop-firms.md §8.4. */
const MAX_LOSS_MODES = ['static', 'trail_eod_balance', 'trail_intraday_balance', 'trail_intraday_equity'] as const;
const PAYOUT_POLICIES = ['keep_floor', 'floor_from_balance', 'reduce_hwm', 'reset_on_new_account'] as const;
const maxLossParams = z
  .object({
    ...sized,
    mode: oneOf('mode', MAX_LOSS_MODES).default('static'),
    lock: oneOf('lock', ['none', 'at_initial']).default('none'),
    /** The lock's level above the initial balance (TX3: "100"); an amount of the account currency. */
    lockOffset: z
      .string({ error: 'lockOffset must be an amount as a decimal string, e.g. "100"' })
      .regex(/^-?\d+(\.\d+)?$/, 'lockOffset must be an amount as a decimal string, e.g. "100"')
      .default('0'),
    measure: oneOf('measure', ['equity', 'balance']).default('equity'),
    comparator: oneOf('comparator', ['lt', 'lte']).default('lt'),
    payoutPolicy: oneOf('payoutPolicy', PAYOUT_POLICIES).default('keep_floor'),
    /** The end of day an end-of-day trailing floor is taken at. */
    ...boundary,
  })
  .superRefine(oneSize('max_loss'));

const profitTargetParams = z.object({ ...sized }).superRefine(oneSize('profit_target'));

/** docs/reference/prop-firms.md §8.6. */
const TRADING_DAY_RULES = ['opened', 'opened_or_closed', 'nonzero_pnl', 'open_and_close_same_day'] as const;
const minTradingDaysParams = z.object({
  min: count('min'),
  rule: oneOf('rule', TRADING_DAY_RULES).default('opened'),
  ...boundary,
});

/** docs/reference/prop-firms.md §8.7. */
const CONSISTENCY_DENOMINATORS = ['positive_days_sum', 'net_total', 'max_target_net_total'] as const;
const consistencyParams = z.object({
  maxPct: percent('maxPct').refine((v) => v > 0, { message: 'maxPct must be a percent above 0' }),
  denominator: oneOf('denominator', CONSISTENCY_DENOMINATORS).default('positive_days_sum'),
  ...boundary,
});

const PROFITABLE_DAY_BASES = ['closed_on_day', 'closed_by_open_day'] as const;
const profitableDaysParams = z.object({
  min: count('min'),
  /** The least profit that makes a day profitable, in percent of the initial balance (The5ers: 0.5). */
  threshold: percent('threshold').default(0),
  pnlBasis: oneOf('pnlBasis', PROFITABLE_DAY_BASES).default('closed_on_day'),
  ...boundary,
});

const maxRiskParams = z
  .object({
    ...sized,
    /** What pct is of: the initial balance, or the trading balance when the trade opens. */
    basis: oneOf('basis', ['initial', 'balance']).default('balance'),
  })
  .superRefine(oneSize('max_risk_per_trade'));

const maxTradesParams = z.object({ max: count('max'), ...boundary });
const maxLossesParams = z.object({ max: count('max'), ...boundary });
const noWeekendParams = z.object({});

const effect = z.enum(RULE_EFFECTS, { error: `effect must be one of ${listed(RULE_EFFECTS)}` });
const ruleOf = <K extends RuleKind, P extends z.ZodType>(kind: K, params: P) =>
  z.object({
    kind: z.literal(kind),
    effect: effect.default('fail'),
    params: params,
  });

export const ruleSchema = z.discriminatedUnion(
  'kind',
  [
    ruleOf('daily_loss', dailyLossParams),
    ruleOf('max_loss', maxLossParams),
    ruleOf('profit_target', profitTargetParams),
    ruleOf('min_trading_days', minTradingDaysParams),
    ruleOf('consistency', consistencyParams),
    ruleOf('profitable_days', profitableDaysParams),
    ruleOf('max_risk_per_trade', maxRiskParams),
    ruleOf('max_trades_per_day', maxTradesParams),
    ruleOf('max_consecutive_losses', maxLossesParams),
    ruleOf('no_weekend_holding', noWeekendParams.default({})),
  ],
  {
    error: (failure) => (failure.code === 'invalid_union' ? `kind must be one of ${listed(RULE_KINDS)}` : undefined),
  },
);
export type Rule = z.output<typeof ruleSchema>;
export type RuleInput = z.input<typeof ruleSchema>;
export type RuleOf<K extends RuleKind> = Extract<Rule, { kind: K }>;

export const ruleSetSchema = z
  .object({
    accountId: z
      .string({ error: 'accountId must name the account' })
      .trim()
      .min(1, 'accountId must name the account')
      .max(200, 'accountId is too long'),
    name: z
      .string({ error: 'name must be a text of 1 to 200 characters' })
      .trim()
      .min(1, 'name must be a text of 1 to 200 characters')
      .max(200, 'name must be a text of 1 to 200 characters'),
    preset: oneOf('preset', RULE_PRESET_IDS).optional(),
    /** When the phase starts (UTC): trades opened earlier and balance operations up to it are left out. */
    startTime: isoTime('startTime'),
    /** The phase's initial balance `I` (docs/reference/prop-firms.md, Vocabulary): most percents are of it. */
    initialBalance: z
      .string({ error: 'initialBalance must be an amount above 0 as a decimal string, e.g. "100000"' })
      .regex(/^\d+(\.\d+)?$/, 'initialBalance must be an amount above 0 as a decimal string, e.g. "100000"')
      .refine((v) => /[1-9]/.test(v), { message: 'initialBalance must be an amount above 0' }),
    rules: z.array(ruleSchema, { error: 'rules must be a list of rules' }).max(50, 'rules may hold at most 50 rules'),
  })
  .superRefine((set, ctx) => {
    // One day boundary per set: the first rule naming a reset time or zone sets it, the others must agree.
    let first: { resetTime?: string; zone?: string } | undefined;
    set.rules.forEach((rule, index) => {
      const params = rule.params as { resetTime?: string; zone?: string };
      for (const field of ['resetTime', 'zone'] as const) {
        if (params[field] === undefined) continue;
        if (first?.[field] === undefined) {
          first = { ...first, [field]: params[field] };
        } else if (first[field] !== params[field]) {
          ctx.addIssue({
            code: 'custom',
            path: ['rules', index, 'params', field],
            message: `${field} must be the same in every rule (${first[field]}): a rule set has one daily reset`,
          });
        }
      }
    });
  });
export type RuleSet = z.output<typeof ruleSetSchema>;
export type RuleSetInput = z.input<typeof ruleSetSchema>;

/** A preset: a firm's published rules as data, with where they come from and what was chosen where sources differ. */
export const rulePresetSchema = z.object({
  id: z.enum(RULE_PRESET_IDS),
  name: z.string(),
  /** One line naming the firm's page (docs/reference/prop-firms.md, Sources). */
  source: z.string(),
  /** Where the reference marks a rule disputed or unknown: the option chosen (each a param of the rule). */
  assumptions: z.array(z.string()),
  rules: z.array(ruleSchema),
});

// ── What the engine answers ───────────────────────────────────────────────────────────────────────────────────

const RULE_STATES = ['on_track', 'passed', 'breached', 'paused', 'unknown'] as const;

/** Each state as the trader reads it (docs/PRODUCT.md, My Rules): the badge's text and the assistant's words. */
export const RULE_STATE_LABELS: Record<(typeof RULE_STATES)[number], string> = {
  on_track: 'On track',
  passed: 'Passed',
  breached: 'Breached',
  paused: 'Paused until the reset',
  unknown: 'Not enough data',
};

const kind = z.enum(RULE_KINDS);
const money = decimalString.nullable();
/** true: held; false: broken (or an objective not met yet); null: cannot be decided (equity unknown). */
const ok = z.boolean().nullable();

/**
 * One rule at a time: money rules in exact decimal strings of the account currency, counts and days as integers,
 * consistency in percent (decimal strings). `remaining` = measure − floor for the loss rules (may exceed the limit).
 */
const ruleLineSchema = z.discriminatedUnion('unit', [
  z.object({
    kind,
    unit: z.literal('money'),
    limit: money,
    used: money,
    remaining: money,
    percentUsed: money,
    floor: money,
    ok,
  }),
  z.object({
    kind,
    unit: z.enum(['count', 'days']),
    limit: z.number().int(),
    used: z.number().int(),
    remaining: z.number().int(),
    percentUsed: money,
    floor: z.null(),
    ok,
  }),
  z.object({
    kind,
    unit: z.literal('percent'),
    limit: decimalString,
    used: money,
    remaining: money,
    percentUsed: money,
    floor: z.null(),
    ok,
  }),
]);
export type RuleLine = z.output<typeof ruleLineSchema>;

/**
 * An amount of a status (today's room, the room to the max-loss floor) as a percent of the initial balance `I`:
 * exact, 2 decimals ('3.25'); null when either is missing. My Rules, the Overview and the assistant say it alike.
 */
export function percentOfInitial(amount: string | null | undefined, initialBalance: string): string | null {
  if (!isDecimal(amount) || !isDecimal(initialBalance) || !/[1-9]/.test(initialBalance)) return null;
  return divideDecimals(multiplyDecimals(amount, '100'), initialBalance, 2);
}

/** A rule broken by a trade (a trade beyond a limit), or by the account (tradeKey null). */
const ruleBreakSchema = z.object({ tradeKey: z.string().nullable(), kind, time: z.string() });
export type RuleBreak = z.output<typeof ruleBreakSchema>;

/** docs/reference/prop-firms.md §8.2: one record per calendar day, weekends included, from the start to now. */
export const dayRecordSchema = z.object({
  /** The local date (YYYY-MM-DD, in the rule set's reset zone) on which the day's reset falls. */
  date: z.string(),
  /** UTC ISO-8601: the reset starting the day, and the next one. */
  start: z.string(),
  end: z.string(),
  /** The daily-loss rule's anchor and floor (its last floor when it moves within the day); null without one. */
  anchor: money,
  floor: money,
  /** null when the equity was unknown at some moment of the day. */
  lowestEquity: money,
  closedPL: decimalString,
  tradingDay: z.boolean(),
  /** The kinds broken this day, in the order of their first break. */
  breaks: z.array(kind),
  /** Each rule's first break this day: `index` is its place in the rule set. */
  breakTimes: z.array(z.object({ kind, index: z.number().int(), time: z.string() })),
  /** The trading balance at the reset and at the day's end (or now). */
  startBalance: decimalString,
  endBalance: decimalString,
  endEquity: money,
  equityKnown: z.boolean(),
  /** The first moment of the day at which every objective held at once, nothing broken before. */
  passedAt: z.string().nullable(),
  /** The rules at the day's end (or now). */
  lines: z.array(ruleLineSchema),
});
export type DayRecord = z.output<typeof dayRecordSchema>;

export const ruleStatusSchema = z.object({
  state: z.enum(RULE_STATES),
  currency: z.string(),
  breach: z.object({ rule: kind, time: z.string() }).nullable(),
  passedAt: z.string().nullable(),
  rules: z.array(ruleLineSchema),
  today: z.object({
    start: z.string(),
    end: z.string(),
    anchor: money,
    floor: money,
    remaining: money,
  }),
  tradingDays: z.object({ done: z.number().int(), required: z.number().int() }),
  equityBasis: z.enum(['samples+candles', 'closed-only']),
});
export type RuleStatus = z.output<typeof ruleStatusSchema>;

export const ruleEvaluationSchema = z.object({
  status: ruleStatusSchema,
  days: z.array(dayRecordSchema),
  breaks: z.array(ruleBreakSchema),
});
export type RuleEvaluation = z.output<typeof ruleEvaluationSchema>;

// ── The routes (/api/v1/rules/…, docs/rules.md, API) ─────────────────────────────────────────────────────────────

/** A stored rule set: the set as the engine reads it, with its id and the account's key. */
const storedRuleSetSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  name: z.string(),
  preset: z.enum(RULE_PRESET_IDS).nullable(),
  startTime: z.string(),
  initialBalance: decimalString,
  rules: z.array(ruleSchema),
  alertThresholds: z.array(z.number()),
  emailAlerts: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StoredRuleSet = z.output<typeof storedRuleSetSchema>;

/**
 * The percents of a loss limit's use (daily loss, max loss) at which the trader is told, ascending, each once per
 * rule set and day (docs/rules.md, Alerts). Default 50, 80 and 100.
 */
export const DEFAULT_ALERT_THRESHOLDS = [50, 80, 100] as const;
const alertThresholdsSchema = z
  .array(
    z
      .number({ error: 'alertThresholds must be percents between 1 and 100' })
      .int('alertThresholds must be whole percents')
      .min(1, 'alertThresholds must be percents between 1 and 100')
      .max(100, 'alertThresholds must be percents between 1 and 100'),
    { error: 'alertThresholds must be a list of percents' },
  )
  .max(10, 'alertThresholds may hold at most 10 percents')
  .refine((list) => list.every((v, i) => i === 0 || v > list[i - 1]!), 'alertThresholds must be ascending, each once');

const ruleList = z
  .array(ruleSchema, { error: 'rules must be a list of rules' })
  .max(50, 'rules may hold at most 50 rules');

/**
 * POST /api/v1/rules/create_rule_set. With a preset its rules come first, and a given rule replaces the preset's
 * rule of the same kind; startTime defaults to the account's first booking (else now), initialBalance to the
 * account's balance at startTime.
 */
export const createRuleSetBody = z.object({
  accountId: ruleSetSchema.shape.accountId,
  name: ruleSetSchema.shape.name,
  preset: oneOf('preset', RULE_PRESET_IDS).optional(),
  startTime: isoTime('startTime').optional(),
  initialBalance: ruleSetSchema.shape.initialBalance.optional(),
  rules: ruleList.default([]),
  alertThresholds: alertThresholdsSchema.optional(),
  emailAlerts: z.boolean({ error: 'emailAlerts must be true or false' }).optional(),
});

/** POST /api/v1/rules/edit_rule_set/:id: the fields given replace the stored ones (rules as a whole list). */
export const editRuleSetBody = createRuleSetBody
  .omit({ accountId: true, preset: true, rules: true })
  .partial()
  // Without a default: an edit that leaves `rules` out keeps the stored ones.
  .extend({ rules: ruleList.optional() });

export const ruleSetIdParams = z.object({
  id: z
    .string({ error: 'id must name a rule set' })
    .trim()
    .min(1, 'id must name a rule set')
    .max(100, 'id is too long'),
});

/** GET /api/v1/rules/get_status/:id */
export const ruleStatusQuery = z.object({ at: isoTime('at').optional() });

/** GET /api/v1/rules/get_days/:id */
export const ruleDaysQuery = z.object({ from: isoTime('from').optional(), to: isoTime('to').optional() });

/** GET /api/v1/rules/get_breaks */
export const ruleBreaksQuery = ruleDaysQuery.extend({ accountId: ruleSetSchema.shape.accountId.optional() });

/** A trade that broke a trade-level rule of one of the user's rule sets, with the rule. */
const ruleTradeBreakSchema = z.object({
  ruleSetId: z.string(),
  ruleSetName: z.string(),
  accountId: z.string(),
  tradeKey: z.string(),
  kind,
  time: z.string(),
  rule: ruleSchema,
});

/** A break as a trade of the trade list carries it (trading.ts tradeListItem): the rule set, the rule and when. */
export const tradeRuleBreak = ruleTradeBreakSchema.pick({
  ruleSetId: true,
  ruleSetName: true,
  kind: true,
  time: true,
  rule: true,
});
export type TradeRuleBreak = z.output<typeof tradeRuleBreak>;

export const rulePresetsResponse = envelope.extend({ data: z.array(rulePresetSchema) });
export const ruleSetsResponse = envelope.extend({ data: z.array(storedRuleSetSchema) });
export const ruleSetResponse = envelope.extend({ data: storedRuleSetSchema });
export const ruleSetDeletedResponse = envelope.extend({ data: z.object({ id: z.string() }) });
export const ruleStatusResponse = envelope.extend({ data: ruleStatusSchema });
export const ruleDaysResponse = envelope.extend({ data: z.array(dayRecordSchema) });
export const ruleBreaksResponse = envelope.extend({ data: z.array(ruleTradeBreakSchema) });
export type RuleTradeBreak = z.output<typeof ruleTradeBreakSchema>;
export type RulePreset = z.output<typeof rulePresetSchema>;
export type CreateRuleSetBody = z.input<typeof createRuleSetBody>;
export type EditRuleSetBody = z.input<typeof editRuleSetBody>;
export type RulePresetsResponse = z.output<typeof rulePresetsResponse>;
export type RuleSetsResponse = z.output<typeof ruleSetsResponse>;
export type RuleSetResponse = z.output<typeof ruleSetResponse>;
export type RuleSetDeletedResponse = z.output<typeof ruleSetDeletedResponse>;
export type RuleStatusResponse = z.output<typeof ruleStatusResponse>;
export type RuleDaysResponse = z.output<typeof ruleDaysResponse>;

// ── Alerts (docs/rules.md, Alerts) ────────────────────────────────────────────────────────────────────────────────

/** The loss limits whose use is watched. */
export const ALERT_KINDS = ['daily_loss', 'max_loss'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/**
 * A notice that a loss limit's use crossed a threshold: one per rule set, kind, local day (`day`, in the rule set's
 * reset zone) and threshold, whichever instance noticed it first. Money is an exact decimal in the account currency.
 */
export const ruleAlertSchema = z.object({
  id: z.string(),
  ruleSetId: z.string(),
  ruleSetName: z.string(),
  accountId: z.string(),
  kind: z.enum(ALERT_KINDS),
  threshold: z.number(),
  percentUsed: z.number(),
  day: z.string(),
  /** When the check noticed it (UTC ISO-8601). */
  time: z.string(),
  currency: z.string(),
  limit: decimalString,
  used: decimalString,
  remaining: decimalString,
  message: z.string(),
  readAt: z.string().nullable(),
});
export type RuleAlert = z.output<typeof ruleAlertSchema>;

/** GET /api/v1/rules/get_alerts: newest first; `unread=true` for the unread ones only. */
export const ruleAlertsQuery = z.object({
  unread: z
    .enum(['true', 'false'], { error: 'unread must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
});
export const ruleAlertsResponse = envelope.extend({
  data: z.object({ alerts: z.array(ruleAlertSchema), unread: z.number().int() }),
});
export type RuleAlertsResponse = z.output<typeof ruleAlertsResponse>;

/** POST /api/v1/rules/read_alerts: the named alerts, or every unread one without `ids`, marked read. */
export const readAlertsBody = z.object({
  ids: z
    .array(z.string({ error: 'ids must be alert ids' }), { error: 'ids must be a list of alert ids' })
    .max(500, 'ids may hold at most 500 alerts')
    .optional(),
});
export type ReadAlertsBody = z.input<typeof readAlertsBody>;
export const readAlertsResponse = envelope.extend({ data: z.object({ read: z.number().int() }) });
export type ReadAlertsResponse = z.output<typeof readAlertsResponse>;
