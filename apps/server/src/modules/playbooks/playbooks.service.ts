import { randomUUID } from 'node:crypto';
import type { playbookBody, missedTradeBody, updateTradePlaybookBody } from '@pipsense/contract';
import {
  PLAYBOOK_LIMITS,
  PLAYBOOK_SESSIONS,
  type MissedTrade,
  type Playbook,
  type PlaybookReport,
  type TradePlaybook,
} from '@pipsense/contract';
import type { z } from 'zod';
import { noDailyRates, prepareConversion, type DailyRates } from '../../domain/currency-totals';
import { percent, roundRatio } from '../../domain/rounding';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { createLru } from '../../lib/lru';
import { apiAccountId, type TradingService } from '../trading';
import type { TradeSelection, TradeViews } from '../trade-views';
import { missedOutcome } from './missed-outcome';
import { bookedAmount, playbookFigures, type ReportTrade } from './playbook-report';
import type { AttachmentPorts, MissedCandles, PlaybookItemTarget } from './ports';
import type {
  Checklist,
  GroupRow,
  MissedRow,
  PlaybookRow,
  PlaybooksRepository,
  ReviewRow,
  RuleRow,
  TradeKey,
} from './playbooks.repository';

type PlaybookInput = z.output<typeof playbookBody>;
type ReviewInput = z.output<typeof updateTradePlaybookBody>;
type MissedInput = z.output<typeof missedTradeBody>;

export interface PlaybooksServiceDeps {
  repository: PlaybooksRepository;
  trading: Pick<TradingService, 'ownedTrades'>;
  /** The read side: the report's trades (with R and review) and the accounts' currencies. */
  views: Pick<TradeViews, 'tradeBatches' | 'accountCurrencies'>;
  /** Mid candles for missed trades' outcomes (ports.ts); without it every outcome is unavailable. */
  candles?: MissedCandles | undefined;
  /** The attachments module's counts and deletion (ports.ts); without it counts are 0 and nothing is deleted. */
  attachments?: AttachmentPorts | undefined;
  homeCurrencyOf: (userId: string) => Promise<string>;
  ratesFor?: ((userId: string) => DailyRates) | undefined;
  now: () => Date;
  log?: ((error: unknown, context: Record<string, unknown>) => void) | undefined;
}

/** A trade as the API names it: the account's login (or key) and the trade id. */
export interface TradeRef {
  accountId: string;
  tradeId: string;
}

const PLAYBOOK_NOT_FOUND = 'Playbook not found. It may have been deleted: reload your playbooks.';
const MISSED_NOT_FOUND = 'Missed trade not found. It may have been deleted: reload the list.';

/** How long after its time a missed trade is followed (docs/review.md, Missed trades). */
const MISSED_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;
export const NO_CANDLE_SOURCE = 'No candle source: connect an OANDA account to see what it would have done.';
const CANDLES_FAILED = 'Candles could not be read just now: try again later.';
const NOT_YET = 'No candle after this time yet.';
const WINDOW_ENDED = `Neither level was reached within ${MISSED_WINDOW_DAYS} days: the R at that last close.`;

/** A settled outcome's key: the missed trade and every field its outcome depends on (an edit is a new key). */
const settledKey = (r: MissedRow) =>
  [r.id, r.updated_at, r.instrument, r.side, r.time, r.entry, r.stop, r.target ?? ''].join('|');

/** A missed trade's outcome as the API shows it. */
type OutcomeView = Pick<MissedTrade, 'outcome' | 'wouldBeR' | 'outcomeTime' | 'outcomeNote'>;

const unavailable = (outcomeNote: string): OutcomeView => ({
  outcome: 'unavailable',
  wouldBeR: null,
  outcomeTime: null,
  outcomeNote,
});

const keyText = (k: TradeKey) => `${k.accountKey} ${k.tradeId}`;

function jsonList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

const bySessionOrder = (sessions: readonly string[]): Playbook['sessions'] =>
  PLAYBOOK_SESSIONS.filter((s) => sessions.includes(s));

/**
 * The checklist an edit leaves (docs/review.md, Playbooks and reviews): a group or rule named by its id is kept
 * (renamed, moved, brought back if it was retired), one without an id is new, a current one left out is retired.
 * An id that is not of this playbook, or named twice, is a 400 naming the field.
 */
function plannedChecklist(
  userId: string,
  playbookId: string,
  existing: Checklist,
  groups: PlaybookInput['groups'],
  at: string,
): Checklist {
  const oldGroups = new Map(existing.groups.map((g) => [g.id, g]));
  const oldRules = new Map(existing.rules.map((r) => [r.id, r]));
  const seenGroups = new Set<string>();
  const seenRules = new Set<string>();
  const next: Checklist = { groups: [], rules: [] };
  groups.forEach((g, gi) => {
    const groupId = g.id ?? randomUUID();
    if (g.id !== undefined) {
      if (!oldGroups.has(g.id))
        throw badRequest(`groups[${gi}].id: no group "${g.id}" in this playbook. Leave the id out for a new group.`);
      if (seenGroups.has(g.id)) throw badRequest(`groups[${gi}].id: the group "${g.id}" is listed twice.`);
    }
    seenGroups.add(groupId);
    next.groups.push({
      id: groupId,
      playbook_id: playbookId,
      user_id: userId,
      name: g.name,
      position: gi,
      retired_at: null,
    });
    g.rules.forEach((r, ri) => {
      const ruleId = r.id ?? randomUUID();
      if (r.id !== undefined) {
        if (!oldRules.has(r.id))
          throw badRequest(
            `groups[${gi}].rules[${ri}].id: no rule "${r.id}" in this playbook. Leave the id out for a new rule.`,
          );
        if (seenRules.has(r.id)) throw badRequest(`groups[${gi}].rules[${ri}].id: the rule "${r.id}" is listed twice.`);
      }
      seenRules.add(ruleId);
      next.rules.push({
        id: ruleId,
        playbook_id: playbookId,
        group_id: groupId,
        user_id: userId,
        text: r.text,
        position: ri,
        retired_at: null,
      });
    });
  });
  for (const g of existing.groups)
    if (!seenGroups.has(g.id)) next.groups.push({ ...g, retired_at: g.retired_at ?? at });
  for (const r of existing.rules) if (!seenRules.has(r.id)) next.rules.push({ ...r, retired_at: r.retired_at ?? at });
  return next;
}

/** The checklist's current groups and rules, in order. */
function currentGroups(checklist: Checklist, playbookId: string): Playbook['groups'] {
  const rules = checklist.rules.filter((r) => r.playbook_id === playbookId && r.retired_at === null);
  return checklist.groups
    .filter((g) => g.playbook_id === playbookId && g.retired_at === null)
    .sort((a, b) => a.position - b.position)
    .map((g) => ({
      id: g.id,
      name: g.name,
      rules: rules
        .filter((r) => r.group_id === g.id)
        .sort((a, b) => a.position - b.position)
        .map((r) => ({ id: r.id, text: r.text })),
    }));
}

/** The ids of the playbook's current rules, in checklist order: what a review is made against. */
const currentRuleIds = (checklist: Checklist, playbookId: string) =>
  currentGroups(checklist, playbookId).flatMap((g) => g.rules.map((r) => r.id));

/** Current before retired, then by position: a retired row keeps the position it had. */
const byPlace = (
  a: { retired_at: string | null; position: number },
  b: { retired_at: string | null; position: number },
) => Number(a.retired_at !== null) - Number(b.retired_at !== null) || a.position - b.position;

/** Every rule of the checklist in order (by group, then rule; retired ones after the current ones of each). */
function orderedRules(checklist: Checklist): Array<RuleRow & { group: GroupRow | undefined }> {
  const groups = [...checklist.groups].sort(byPlace);
  const place = new Map(groups.map((g, i) => [g.id, i]));
  const byId = new Map(groups.map((g) => [g.id, g]));
  return [...checklist.rules]
    .sort((a, b) => (place.get(a.group_id) ?? 0) - (place.get(b.group_id) ?? 0) || byPlace(a, b))
    .map((r) => ({ ...r, group: byId.get(r.group_id) }));
}

/**
 * Playbooks, trade reviews against them, the per-playbook report and missed trades (docs/review.md), every call
 * scoped by the signed-in user: another user's playbook, trade or missed trade is a 404.
 */
export function createPlaybooksService(deps: PlaybooksServiceDeps) {
  const { repository: repo, now } = deps;
  /** Outcomes that no longer change (a level reached, or the window over), by missed trade id and its last edit. */
  const settled = createLru<OutcomeView>({ maxEntries: 20_000 });

  async function attachmentCounts(userId: string, target: PlaybookItemTarget, ids: readonly string[]) {
    if (!deps.attachments || ids.length === 0) return new Map<string, number>();
    return deps.attachments.attachmentCounts(userId, target, ids);
  }

  async function deleteAttachments(userId: string, target: PlaybookItemTarget, id: string): Promise<void> {
    try {
      await deps.attachments?.deleteAttachments(userId, { target, id });
    } catch (error) {
      // The item is gone already; its images are the attachments module's to retry (its deletion outbox).
      deps.log?.(error, { userId, target, id, what: 'attachments of a deleted item' });
    }
  }

  async function playbooksOf(userId: string, rows: readonly PlaybookRow[]): Promise<Playbook[]> {
    const ids = rows.map((r) => r.id);
    const [checklist, reviews, missed, images] = await Promise.all([
      repo.checklists(userId, ids),
      repo.reviewCounts(userId),
      repo.missedCounts(userId),
      attachmentCounts(userId, 'playbook', ids),
    ]);
    return rows.map((row) => {
      const counts = reviews.get(row.id) ?? { trades: 0, reviewed: 0, followed: 0 };
      return {
        id: row.id,
        name: row.name,
        description: row.description,
        instruments: jsonList(row.instruments),
        sessions: bySessionOrder(jsonList(row.sessions)),
        groups: currentGroups(checklist, row.id),
        defaultRiskPct: row.default_risk_pct === null ? null : Number(row.default_risk_pct),
        counts: { ...counts, missed: missed.get(row.id) ?? 0 },
        attachmentCount: images.get(row.id) ?? 0,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      };
    });
  }

  async function ownedPlaybook(userId: string, id: string): Promise<PlaybookRow> {
    const row = await repo.playbook(userId, id);
    if (!row) throw notFound(PLAYBOOK_NOT_FOUND);
    return row;
  }

  const playbookOf = async (userId: string, id: string): Promise<Playbook> =>
    (await playbooksOf(userId, [await ownedPlaybook(userId, id)]))[0]!;

  const ownedTrades = (userId: string, refs: readonly TradeRef[]) => deps.trading.ownedTrades(userId, refs);

  function tradePlaybookOf(ref: TradeRef, review: ReviewRow | undefined, checklist: Checklist): TradePlaybook {
    if (!review)
      return { ...ref, playbookId: null, reviewed: false, followedRuleIds: [], followedAll: null, rules: [] };
    const reviewedAgainst = new Set(jsonList(review.rule_ids));
    const followed = new Set(jsonList(review.followed_rule_ids));
    const rules = orderedRules(checklist).filter((r) => r.retired_at === null || reviewedAgainst.has(r.id));
    return {
      ...ref,
      playbookId: review.playbook_id,
      reviewed: Number(review.reviewed) === 1,
      followedRuleIds: rules.filter((r) => followed.has(r.id)).map((r) => r.id),
      followedAll: review.followed_all === null ? null : Number(review.followed_all) === 1,
      rules: rules.map((r) => ({
        id: r.id,
        text: r.text,
        groupName: r.group?.name ?? '',
        retired: r.retired_at !== null,
        followed: followed.has(r.id),
      })),
    };
  }

  async function writePlaybook(userId: string, id: string | null, body: PlaybookInput): Promise<string> {
    const at = now().toISOString();
    const playbookId = id ?? randomUUID();
    const values = {
      name: body.name,
      description: body.description,
      instruments: JSON.stringify([...new Set(body.instruments)]),
      sessions: JSON.stringify(bySessionOrder(body.sessions)),
      default_risk_pct: body.defaultRiskPct,
      updated_at: at,
    };
    await repo.transaction(async (trx) => {
      const existing: Checklist = id ? await repo.checklists(userId, [id], trx) : { groups: [], rules: [] };
      const next = plannedChecklist(userId, playbookId, existing, body.groups, at);
      if (id) await repo.updatePlaybook(trx, userId, id, values);
      else await repo.insertPlaybook(trx, { id: playbookId, user_id: userId, created_at: at, ...values });
      await repo.saveChecklist(trx, existing, next);
    });
    return playbookId;
  }

  /**
   * The outcomes of these missed trades (missed-outcome.ts), by id. Settled ones (a level reached, or the window
   * over) are kept per instance by id and last edit and cost nothing; the others read the candle store once per
   * instrument and span of overlapping windows, so a list of dozens asks for a handful of spans, and the store
   * fetches only what it does not hold yet (docs/review.md, Missed trades).
   */
  async function outcomesOf(userId: string, rows: readonly MissedRow[]): Promise<Map<string, OutcomeView>> {
    const out = new Map<string, OutcomeView>();
    const nowMs = now().getTime();
    const pending: Array<{ row: MissedRow; from: number; to: number; windowOver: boolean }> = [];
    for (const row of rows) {
      const known = settled.get(settledKey(row));
      const from = Date.parse(row.time);
      const windowEnd = from + MISSED_WINDOW_DAYS * DAY_MS;
      if (known) out.set(row.id, known);
      else if (!deps.candles) out.set(row.id, unavailable(NO_CANDLE_SOURCE));
      else if (from >= nowMs)
        out.set(row.id, { outcome: 'open', wouldBeR: null, outcomeTime: null, outcomeNote: NOT_YET });
      else pending.push({ row, from, to: Math.min(nowMs, windowEnd), windowOver: windowEnd <= nowMs });
    }
    const read = deps.candles;
    if (!read || pending.length === 0) return out;
    // Per instrument, the windows merged where they overlap: one read of the store per span.
    pending.sort((a, b) =>
      a.row.instrument < b.row.instrument ? -1 : a.row.instrument > b.row.instrument ? 1 : a.from - b.from,
    );
    const spans: Array<{ instrument: string; from: number; to: number; members: typeof pending }> = [];
    for (const p of pending) {
      const last = spans.at(-1);
      if (last && last.instrument === p.row.instrument && p.from <= last.to) {
        last.to = Math.max(last.to, p.to);
        last.members.push(p);
      } else spans.push({ instrument: p.row.instrument, from: p.from, to: p.to, members: [p] });
    }
    // One span at a time: the candle store's budget is shared with the screens.
    for (const span of spans) {
      let candles: Awaited<ReturnType<MissedCandles>>;
      try {
        candles = await read(userId, {
          instrument: span.instrument,
          from: new Date(span.from).toISOString(),
          to: new Date(span.to).toISOString(),
        });
      } catch (error) {
        deps.log?.(error, { userId, instrument: span.instrument, what: 'missed trade candles' });
        for (const p of span.members) out.set(p.row.id, unavailable(CANDLES_FAILED));
        continue;
      }
      for (const { row, to, windowOver } of span.members) {
        if (candles === null) {
          out.set(row.id, unavailable(NO_CANDLE_SOURCE));
          continue;
        }
        const within = candles.filter((c) => Date.parse(c.time) < to);
        const side = row.side === 'short' ? 'short' : 'long';
        const result = missedOutcome(
          { side, time: row.time, entry: row.entry, stop: row.stop, target: row.target },
          within,
        );
        const open = result.outcome === 'open';
        const outcome: OutcomeView = {
          ...result,
          outcomeNote: !open ? null : result.wouldBeR === null ? NOT_YET : windowOver ? WINDOW_ENDED : null,
        };
        if (!open || windowOver) settled.set(settledKey(row), outcome);
        out.set(row.id, outcome);
      }
    }
    return out;
  }

  async function missedOf(userId: string, rows: readonly MissedRow[]): Promise<MissedTrade[]> {
    const [images, outcomes] = await Promise.all([
      attachmentCounts(
        userId,
        'missed',
        rows.map((r) => r.id),
      ),
      outcomesOf(userId, rows),
    ]);
    return rows.map((row) => {
      const outcome = outcomes.get(row.id)!;
      return {
        id: row.id,
        instrument: row.instrument,
        side: row.side === 'short' ? 'short' : 'long',
        time: row.time,
        playbookId: row.playbook_id,
        entry: row.entry,
        stop: row.stop,
        target: row.target,
        note: row.note,
        outcome: outcome.outcome,
        wouldBeR: outcome.wouldBeR,
        outcomeTime: outcome.outcomeTime,
        outcomeNote: outcome.outcomeNote,
        attachmentCount: images.get(row.id) ?? 0,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      };
    });
  }

  async function ownedMissed(userId: string, id: string): Promise<MissedRow> {
    const row = await repo.missedTrade(userId, id);
    if (!row) throw notFound(MISSED_NOT_FOUND);
    return row;
  }

  const missedValues = (body: MissedInput) => ({
    instrument: body.instrument,
    side: body.side,
    time: body.time,
    playbook_id: body.playbookId ?? null,
    entry: body.entry,
    stop: body.stop,
    target: body.target ?? null,
    note: body.note,
  });

  return {
    async playbooks(userId: string): Promise<Playbook[]> {
      return playbooksOf(userId, await repo.playbooks(userId));
    },

    async create(userId: string, body: PlaybookInput): Promise<Playbook> {
      if ((await repo.countPlaybooks(userId)) >= PLAYBOOK_LIMITS.playbooksPerUser)
        throw new AppError(
          400,
          'PLAYBOOK_LIMIT',
          `You have ${PLAYBOOK_LIMITS.playbooksPerUser} playbooks, the most allowed. Delete one you no longer use to add another.`,
        );
      return playbookOf(userId, await writePlaybook(userId, null, body));
    },

    async edit(userId: string, id: string, body: PlaybookInput): Promise<Playbook> {
      await ownedPlaybook(userId, id);
      await writePlaybook(userId, id, body);
      return playbookOf(userId, id);
    },

    /** Deletes the playbook: its trades lose the assignment, its missed trades keep their data; the playbook as it was. */
    async remove(userId: string, id: string): Promise<Playbook> {
      const before = await playbookOf(userId, id);
      await repo.transaction(async (trx) => {
        const at = now().toISOString();
        if ((await repo.deletePlaybook(trx, userId, id)) > 0) await repo.listChanged(trx, userId, at);
      });
      await deleteAttachments(userId, 'playbook', id);
      return before;
    },

    /** The trade's review as stored, with the retired rules it was reviewed against; no playbook: `playbookId` null. */
    async tradePlaybook(userId: string, ref: TradeRef): Promise<TradePlaybook> {
      const [owned] = await ownedTrades(userId, [ref]);
      const key = owned!.key;
      const review = (await repo.reviewsOf(userId, [key])).get(`${key.accountKey} ${key.tradeId}`);
      const checklist = review ? await repo.checklists(userId, [review.playbook_id]) : { groups: [], rules: [] };
      return tradePlaybookOf(ref, review, checklist);
    },

    /** Puts the trade on a playbook (or takes it off: null) with its review. */
    async updateTradePlaybook(userId: string, ref: TradeRef, body: ReviewInput): Promise<TradePlaybook> {
      const [owned] = await ownedTrades(userId, [ref]);
      const key = owned!.key;
      const at = now().toISOString();
      if (body.playbookId === null) {
        await repo.transaction(async (trx) => {
          if (await repo.deleteReview(trx, userId, key)) await repo.listChanged(trx, userId, at);
        });
        return tradePlaybookOf(ref, undefined, { groups: [], rules: [] });
      }
      const playbookId = (await ownedPlaybook(userId, body.playbookId)).id;
      const checklist = await repo.checklists(userId, [playbookId]);
      const ruleIds = currentRuleIds(checklist, playbookId);
      const current = new Set(ruleIds);
      const followed = [...new Set(body.followedRuleIds)];
      const stranger = followed.find((id) => !current.has(id));
      if (stranger !== undefined)
        throw badRequest(
          `followedRuleIds: "${stranger}" is not a current rule of this playbook. Reload the playbook and tick its rules.`,
        );
      const review: ReviewRow = {
        user_id: userId,
        account_key: key.accountKey,
        trade_id: key.tradeId,
        playbook_id: playbookId,
        reviewed: body.reviewed ? 1 : 0,
        rule_ids: JSON.stringify(ruleIds),
        followed_rule_ids: JSON.stringify(ruleIds.filter((id) => followed.includes(id))),
        followed_all: body.reviewed ? (followed.length === ruleIds.length ? 1 : 0) : null,
        updated_at: at,
      };
      await repo.transaction(async (trx) => {
        await repo.upsertReview(trx, review);
        await repo.listChanged(trx, userId, at);
      });
      return tradePlaybookOf(ref, review, checklist);
    },

    /**
     * Assigns every listed trade to the playbook (or takes them off: null) in one transaction, refused whole when a
     * trade or the playbook is not the user's. A trade moved from another playbook starts unreviewed; one already on
     * this playbook keeps its review.
     */
    async bulkAssign(
      userId: string,
      refs: readonly TradeRef[],
      playbookId: string | null,
    ): Promise<{ updated: number }> {
      const owned = await ownedTrades(userId, refs);
      const keys = owned.map((o) => o.key);
      const at = now().toISOString();
      let ruleIds: string[] = [];
      if (playbookId !== null) {
        await ownedPlaybook(userId, playbookId);
        ruleIds = currentRuleIds(await repo.checklists(userId, [playbookId]), playbookId);
      }
      await repo.transaction(async (trx) => {
        const reviews = await repo.reviewsOf(userId, keys, trx);
        let changed = false;
        for (const key of keys) {
          const review = reviews.get(keyText(key));
          if (playbookId === null) {
            if (review) changed = (await repo.deleteReview(trx, userId, key)) || changed;
            continue;
          }
          if (review?.playbook_id === playbookId) continue;
          await repo.upsertReview(trx, {
            user_id: userId,
            account_key: key.accountKey,
            trade_id: key.tradeId,
            playbook_id: playbookId,
            reviewed: 0,
            rule_ids: JSON.stringify(ruleIds),
            followed_rule_ids: '[]',
            followed_all: null,
            updated_at: at,
          });
          changed = true;
        }
        if (changed) await repo.listChanged(trx, userId, at);
      });
      return { updated: keys.length };
    },

    /** The playbook's report over its assigned trades (docs/review.md, The playbook report). */
    async report(
      userId: string,
      id: string,
      query: { from?: string | undefined; to?: string | undefined; accountId?: string | undefined },
    ): Promise<PlaybookReport> {
      await ownedPlaybook(userId, id);
      const selection: TradeSelection = {
        playbookId: id,
        account: query.accountId,
        time: query.from || query.to ? { basis: 'open', ends: 'both', from: query.from, to: query.to } : undefined,
      };
      const [batches, currencies, home, checklist, reviews] = await Promise.all([
        deps.views.tradeBatches(userId, selection, { sort: 'openTime', order: 'asc' }),
        deps.views.accountCurrencies(userId),
        deps.homeCurrencyOf(userId),
        repo.checklists(userId, [id]),
        repo.reviewsOfPlaybook(userId, id),
      ]);
      // The list names accounts as the API does; currencies and reviews are by account key.
      const currencyOf = new Map([...currencies].map(([key, currency]) => [apiAccountId(key), currency]));
      const reviewOf = new Map(reviews.map((r) => [`${apiAccountId(r.account_key)}|${r.trade_id}`, r]));
      const trades: ReportTrade[] = [];
      for await (const batch of batches)
        for (const item of batch) trades.push({ item, currency: currencyOf.get(item.accountId) ?? '' });
      const conversion = await prepareConversion(
        home,
        trades.filter((t) => t.item.state === 'CLOSED').map(bookedAmount),
        deps.ratesFor?.(userId) ?? noDailyRates,
      );
      const reviewed = trades.filter((t) => t.item.reviewed);
      const followedAll = reviewed.filter((t) => t.item.followedAll === true);
      const brokeSome = reviewed.filter((t) => t.item.followedAll === false);
      // Every rule reviewed against in the range, and how many reviewed trades left it unticked.
      const broken = new Map<string, number>();
      for (const t of trades) {
        const review = reviewOf.get(`${t.item.accountId}|${t.item.tradeId}`);
        if (!review) continue;
        const followed = new Set(jsonList(review.followed_rule_ids));
        for (const ruleId of jsonList(review.rule_ids)) {
          const count = broken.get(ruleId) ?? 0;
          broken.set(ruleId, count + (t.item.reviewed && !followed.has(ruleId) ? 1 : 0));
        }
      }
      const missed = await missedOf(
        userId,
        await repo.missedTrades(userId, { from: query.from, to: query.to, playbookId: id }),
      );
      return {
        playbookId: id,
        ...playbookFigures(trades, conversion),
        followRate: percent(followedAll.length, reviewed.length),
        reviewed: reviewed.length,
        rules: orderedRules(checklist)
          .filter((r) => broken.has(r.id))
          .map((r) => ({ id: r.id, text: r.text, retired: r.retired_at !== null, broken: broken.get(r.id)! })),
        followedAll: playbookFigures(followedAll, conversion),
        brokeSome: playbookFigures(brokeSome, conversion),
        missed: {
          count: missed.length,
          wouldBeR: roundRatio(missed.reduce((sum, m) => sum + (m.wouldBeR ?? 0), 0)),
        },
      };
    },

    async missedTrades(userId: string, range: { from?: string | undefined; to?: string | undefined }) {
      return missedOf(userId, await repo.missedTrades(userId, range));
    },

    async createMissed(userId: string, body: MissedInput): Promise<MissedTrade> {
      if (body.playbookId) await ownedPlaybook(userId, body.playbookId);
      const at = now().toISOString();
      const row: MissedRow = {
        id: randomUUID(),
        user_id: userId,
        ...missedValues(body),
        created_at: at,
        updated_at: at,
      };
      await repo.insertMissed(row);
      return (await missedOf(userId, [row]))[0]!;
    },

    async editMissed(userId: string, id: string, body: MissedInput): Promise<MissedTrade> {
      await ownedMissed(userId, id);
      if (body.playbookId) await ownedPlaybook(userId, body.playbookId);
      if (!(await repo.updateMissed(userId, id, { ...missedValues(body), updated_at: now().toISOString() })))
        throw notFound(MISSED_NOT_FOUND);
      return (await missedOf(userId, [await ownedMissed(userId, id)]))[0]!;
    },

    async removeMissed(userId: string, id: string): Promise<MissedTrade> {
      const [before] = await missedOf(userId, [await ownedMissed(userId, id)]);
      if (!(await repo.deleteMissed(userId, id))) throw notFound(MISSED_NOT_FOUND);
      await deleteAttachments(userId, 'missed', id);
      return before!;
    },

    /** Whether the user has this playbook or missed trade (what the attachments module checks before storing). */
    async itemExists(userId: string, target: PlaybookItemTarget, id: string): Promise<boolean> {
      return target === 'playbook'
        ? (await repo.playbook(userId, id)) !== undefined
        : (await repo.missedTrade(userId, id)) !== undefined;
    },
  };
}
export type PlaybooksService = ReturnType<typeof createPlaybooksService>;
