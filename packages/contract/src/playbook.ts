import { z } from 'zod';
import { decimalString, envelope, isoTime, moneyFigure } from './common';

/*
 * Playbooks: the trader's setups written down as checklists, each trade's review against one, the per-playbook
 * report, and missed trades (setups seen and not taken). docs/review.md explains the review states and every figure
 * of the report. Every route is scoped to the signed-in user; another user's playbook, trade or missed trade is a 404.
 *
 * - `GET  /api/v1/playbook/get_playbooks` → `playbooksResponse`
 * - `POST /api/v1/playbook/create_playbook` `playbookBody` → `playbookResponse`
 * - `POST /api/v1/playbook/edit_playbook/:id` `playbookBody` → `playbookResponse`: a group or rule with its `id` is
 *   kept (renamed or moved), one without is new; a rule left out is retired (its ticks stay in the history, it no
 *   longer shows on new reviews).
 * - `POST /api/v1/playbook/delete_playbook/:id` → `playbookResponse` (as it was); its trades lose the assignment, its
 *   missed trades keep their data without a playbook, its attachments are deleted.
 * - `GET  /api/v1/playbook/get_trade_playbook/:accountId/:tradeId` → `tradePlaybookResponse`: the trade's review as
 *   stored (a trade without a playbook answers `playbookId: null`, no rules), for the trade's details.
 * - `POST /api/v1/playbook/update_trade_playbook/:accountId/:tradeId` `updateTradePlaybookBody` → `tradePlaybookResponse`
 * - `POST /api/v1/playbook/bulk_assign` `bulkAssignBody` → `bulkAssignResponse`
 * - `GET  /api/v1/playbook/get_report/:id?from&to&accountId` → `playbookReportResponse`
 * - `GET  /api/v1/playbook/get_missed_trades?from&to` → `missedTradesResponse`
 * - `POST /api/v1/playbook/create_missed_trade` `missedTradeBody` → `missedTradeResponse`
 * - `POST /api/v1/playbook/edit_missed_trade/:id` `missedTradeBody` → `missedTradeResponse`
 * - `POST /api/v1/playbook/delete_missed_trade/:id` → `missedTradeResponse` (as it was)
 */

export const PLAYBOOK_LIMITS = {
  name: 80,
  description: 10_000,
  groups: 12,
  groupName: 60,
  rulesPerGroup: 30,
  ruleText: 300,
  instruments: 50,
  playbooksPerUser: 100,
  bulkTrades: 500,
  missedNote: 5_000,
} as const;

/** The trading sessions a playbook may be meant for (the Overview's sessions, engine/METRICS.md). */
export const PLAYBOOK_SESSIONS = ['Asia', 'London', 'New York'] as const;
/** The usual rule groups; a playbook may name its groups as it likes. */
export const PLAYBOOK_GROUP_NAMES = ['Entry', 'Exit', 'Risk', 'Context'] as const;

/** A trade's review state against its playbook: every rule ticked, at least one unticked, or not reviewed yet. */
export const PLAYBOOK_REVIEWS = ['followed', 'broke', 'unreviewed'] as const;
export type PlaybookReview = (typeof PLAYBOOK_REVIEWS)[number];

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

const optionalId = z.string().trim().min(1).max(64).optional();

const ruleInput = z.object({ id: optionalId, text: text('rule text', PLAYBOOK_LIMITS.ruleText) });
const groupInput = z.object({
  id: optionalId,
  name: text('group name', PLAYBOOK_LIMITS.groupName),
  rules: z
    .array(ruleInput, { error: 'rules must be a list' })
    .max(PLAYBOOK_LIMITS.rulesPerGroup, `a group has at most ${PLAYBOOK_LIMITS.rulesPerGroup} rules`)
    .default([]),
});

const instrumentCode = z
  .string({ error: 'instruments must be instrument names such as EUR_USD' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9.]{2,12}(_[A-Z0-9.]{2,12})?$/, 'instruments must be instrument names such as EUR_USD');

export const playbookBody = z.object({
  name: text('name', PLAYBOOK_LIMITS.name),
  /** Markdown, shown as safe text (never as HTML). */
  description: z
    .string({ error: 'description must be text' })
    .max(PLAYBOOK_LIMITS.description, `description must be at most ${PLAYBOOK_LIMITS.description} characters`)
    .default(''),
  instruments: z
    .array(instrumentCode, { error: 'instruments must be a list' })
    .max(PLAYBOOK_LIMITS.instruments, `at most ${PLAYBOOK_LIMITS.instruments} instruments`)
    .default([]),
  sessions: z
    .array(z.enum(PLAYBOOK_SESSIONS, { error: `sessions must be among ${PLAYBOOK_SESSIONS.join(', ')}` }), {
      error: 'sessions must be a list',
    })
    .default([]),
  groups: z
    .array(groupInput, { error: 'groups must be a list' })
    .max(PLAYBOOK_LIMITS.groups, `a playbook has at most ${PLAYBOOK_LIMITS.groups} groups`)
    .default([]),
  /** The default initial risk per trade, a percent of the balance (1 = 1 %); null: none. */
  defaultRiskPct: z
    .number({ error: 'defaultRiskPct must be a percent as a number, e.g. 1 for 1 %' })
    .gt(0, 'defaultRiskPct must be more than 0')
    .max(100, 'defaultRiskPct must be at most 100')
    .nullable()
    .default(null),
});
export type PlaybookBody = z.input<typeof playbookBody>;

const playbookRule = z.object({ id: z.string(), text: z.string() });
const playbookGroup = z.object({ id: z.string(), name: z.string(), rules: z.array(playbookRule) });

export const playbook = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  instruments: z.array(z.string()),
  sessions: z.array(z.enum(PLAYBOOK_SESSIONS)),
  /** The current (not retired) groups and rules, in order. */
  groups: z.array(playbookGroup),
  defaultRiskPct: z.number().nullable(),
  /** Trades assigned to it, and how many of them are reviewed / followed every rule; missed trades logged on it. */
  counts: z.object({
    trades: z.number().int(),
    reviewed: z.number().int(),
    followed: z.number().int(),
    missed: z.number().int(),
  }),
  /** Images attached to the playbook. */
  attachmentCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Playbook = z.infer<typeof playbook>;

export const playbookIdParams = z.object({ id: z.string().trim().min(1).max(64) });
export const playbooksResponse = envelope.extend({ data: z.array(playbook) });
export const playbookResponse = envelope.extend({ data: playbook });

/** A trade's playbook and review. `playbookId: null` takes the trade off its playbook (and drops its ticks). */
export const updateTradePlaybookBody = z.object({
  playbookId: z.string({ error: 'playbookId must be a playbook id or null' }).trim().min(1).max(64).nullable(),
  /** The rules followed on this trade (ids of the playbook's current rules); the others count as broken. */
  followedRuleIds: z
    .array(z.string().trim().min(1).max(64), { error: 'followedRuleIds must be a list of rule ids' })
    .max(500)
    .default([]),
  /** false: "not reviewed yet", whatever is ticked. */
  reviewed: z.boolean({ error: 'reviewed must be true or false' }).default(false),
});
export type UpdateTradePlaybookBody = z.input<typeof updateTradePlaybookBody>;

/** A trade's review as stored: the rules it was reviewed against (the playbook's rules at review time). */
export const tradePlaybook = z.object({
  accountId: z.string(),
  tradeId: z.string(),
  playbookId: z.string().nullable(),
  reviewed: z.boolean(),
  followedRuleIds: z.array(z.string()),
  /** null while not reviewed (or no playbook); else whether every rule reviewed against was followed. */
  followedAll: z.boolean().nullable(),
  /** The rules of the review: the current rules, plus retired ones this trade was reviewed against. */
  rules: z.array(playbookRule.extend({ groupName: z.string(), retired: z.boolean(), followed: z.boolean() })),
});
export type TradePlaybook = z.infer<typeof tradePlaybook>;
export const tradePlaybookResponse = envelope.extend({ data: tradePlaybook });

export const bulkAssignBody = z.object({
  trades: z
    .array(z.object({ accountId: z.string().trim().min(1).max(200), tradeId: z.string().trim().min(1).max(64) }), {
      error: 'trades must be a list of {accountId, tradeId}',
    })
    .min(1, 'trades must name at least one trade')
    .max(PLAYBOOK_LIMITS.bulkTrades, `at most ${PLAYBOOK_LIMITS.bulkTrades} trades at once`),
  /** null takes the trades off their playbook. A trade moved to another playbook loses its ticks (unreviewed). */
  playbookId: z.string({ error: 'playbookId must be a playbook id or null' }).trim().min(1).max(64).nullable(),
});
export const bulkAssignResponse = envelope.extend({ data: z.object({ updated: z.number().int() }) });

/** Figures of a group of trades; money under the currency rule (moneyFigure), rates and R as numbers. */
const playbookFigures = z.object({
  trades: z.number().int(),
  /** Percent of closed trades with a positive net (80 = 80 %); null without closed trades. */
  winRate: z.number().nullable(),
  netPL: moneyFigure.nullable(),
  /** Gross profit over gross loss; null without losses or when currencies are listed, not converted. */
  profitFactor: z.number().nullable(),
  /** Net P/L per closed trade. */
  expectancy: moneyFigure.nullable(),
  /** Mean R of closed trades with an initial stop (the same as averageR: kept apart as the contract names both). */
  expectancyR: z.number().nullable(),
  averageR: z.number().nullable(),
});
export type PlaybookFigures = z.infer<typeof playbookFigures>;

export const playbookReportQuery = z.object({
  from: isoTime('from').optional(),
  to: isoTime('to').optional(),
  accountId: z.string().trim().min(1).max(200).optional(),
});
export const playbookReport = playbookFigures.extend({
  playbookId: z.string(),
  /** Percent of reviewed trades with every rule followed (80 = 80 %); null when none is reviewed. */
  followRate: z.number().nullable(),
  reviewed: z.number().int(),
  /** Every rule reviewed against in the range (retired ones too), with how many reviewed trades broke it. */
  rules: z.array(z.object({ id: z.string(), text: z.string(), retired: z.boolean(), broken: z.number().int() })),
  followedAll: playbookFigures,
  brokeSome: playbookFigures,
  /** Missed trades on this playbook in the range, and the sum of their would-be R (those with an outcome). */
  missed: z.object({ count: z.number().int(), wouldBeR: z.number() }),
});
export type PlaybookReport = z.infer<typeof playbookReport>;
export const playbookReportResponse = envelope.extend({ data: playbookReport });

const MISSED_SIDES = ['long', 'short'] as const;
/** What a missed trade would have done, from candles: target first, stop first, neither yet, or no candles. */
const MISSED_OUTCOMES = ['target', 'stop', 'open', 'unavailable'] as const;
export type MissedOutcome = (typeof MISSED_OUTCOMES)[number];

const price = (field: string) =>
  z
    .string({ error: `${field} must be a price as a decimal string, e.g. "1.0850"` })
    .trim()
    .regex(/^\d+(\.\d+)?$/, `${field} must be a price as a decimal string, e.g. "1.0850"`)
    .refine((v) => Number(v) > 0, `${field} must be more than 0`);

export const missedTradeBody = z
  .object({
    instrument: z
      .string({ error: 'instrument is required (e.g. EUR_USD)' })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}$/, 'instrument must look like EUR_USD'),
    side: z.enum(MISSED_SIDES, { error: 'side must be long or short' }),
    time: isoTime('time'),
    playbookId: z.string().trim().min(1).max(64).nullable().optional(),
    entry: price('entry'),
    stop: price('stop'),
    target: price('target').nullable().optional(),
    note: z
      .string({ error: 'note must be text' })
      .max(PLAYBOOK_LIMITS.missedNote, `note must be at most ${PLAYBOOK_LIMITS.missedNote} characters`)
      .default(''),
  })
  .refine((m) => Number(m.stop) !== Number(m.entry), { message: 'stop must differ from entry', path: ['stop'] })
  .refine((m) => (m.side === 'long' ? Number(m.stop) < Number(m.entry) : Number(m.stop) > Number(m.entry)), {
    message: 'stop must be below entry for a long and above it for a short',
    path: ['stop'],
  })
  .refine(
    (m) =>
      m.target == null || (m.side === 'long' ? Number(m.target) > Number(m.entry) : Number(m.target) < Number(m.entry)),
    { message: 'target must be above entry for a long and below it for a short', path: ['target'] },
  );
export type MissedTradeBody = z.input<typeof missedTradeBody>;

export const missedTrade = z.object({
  id: z.string(),
  instrument: z.string(),
  side: z.enum(MISSED_SIDES),
  time: z.string(),
  playbookId: z.string().nullable(),
  entry: decimalString,
  stop: decimalString,
  target: decimalString.nullable(),
  note: z.string(),
  /** From candles after `time`: which level came first; `unavailable` names why in `outcomeNote`. */
  outcome: z.enum(MISSED_OUTCOMES),
  /** The R it would have made: target → reward/risk, stop → −1, open → the R at the last candle; null: unavailable. */
  wouldBeR: z.number().nullable(),
  /** When the target or stop was hit. */
  outcomeTime: z.string().nullable(),
  outcomeNote: z.string().nullable(),
  attachmentCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MissedTrade = z.infer<typeof missedTrade>;
export const missedTradesQuery = z.object({ from: isoTime('from').optional(), to: isoTime('to').optional() });
export const missedTradesResponse = envelope.extend({ data: z.array(missedTrade) });
export const missedTradeResponse = envelope.extend({ data: missedTrade });

/** The answers as the web app reads them. */
export type PlaybooksResponse = z.output<typeof playbooksResponse>;
export type PlaybookResponse = z.output<typeof playbookResponse>;
export type TradePlaybookResponse = z.output<typeof tradePlaybookResponse>;
export type BulkAssignBody = z.input<typeof bulkAssignBody>;
export type BulkAssignResponse = z.output<typeof bulkAssignResponse>;
export type PlaybookReportResponse = z.output<typeof playbookReportResponse>;
export type MissedTradesResponse = z.output<typeof missedTradesResponse>;
export type MissedTradeResponse = z.output<typeof missedTradeResponse>;
