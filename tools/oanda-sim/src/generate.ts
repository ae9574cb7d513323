// Seeds the broker: accounts, a trading history over the instruments' price paths, and the
// transaction log OANDA would hold for it. Trades are planned first, then each is walked along
// its instrument's path to find its exit, then every event is put in time order to hand out
// transaction ids (trade ids are the ids of their opening fills) and running balances.

import { INSTRUMENTS, type InstrumentSpec } from './instruments';
import type { AccountRec, ClientExtensions, Stamp, TradeRec } from './ledger-types';
import { DAY, HOUR, MINUTE, isMarketOpen, nextOpenAtOrAfter, rolloversBetween } from './market-hours';
import type { Market } from './market';
import { session } from './price-path';
import { Rng, mix32 } from './rng';
import { favourableRange, scanTrade } from './trade-sim';
import { toMoneyUnits } from './format';
import { TxWriter, type CloseKind } from './tx-writer';

export interface AccountProfile {
  readonly alias: string;
  readonly currency: string;
  /** Initial deposit in whole units of the account currency. */
  readonly deposit: number;
  /** Multiplier on position sizes. */
  readonly unitScale: number;
  readonly trades: number;
  /** Account-level margin rate (leverage cap), e.g. 0.02 for 50:1. */
  readonly marginRate: number;
}

export interface LedgerConfig {
  readonly seed: number;
  readonly nowMs: number;
  readonly historyDays: number;
  readonly environment: 'practice' | 'live';
  readonly accounts: readonly AccountProfile[];
}

export interface Ledger {
  readonly userId: number;
  readonly accounts: AccountRec[];
  /** Next client request id (17 digits), deterministic per seed. */
  readonly nextRequestId: () => string;
}

interface PlannedTrade {
  readonly spec: InstrumentSpec;
  dir: 1 | -1;
  readonly units: number;
  readonly openMs: number;
  readonly openNs: number;
  readonly tpPips?: number;
  readonly slPips?: number;
  readonly tslPips?: number;
  readonly manualCloseMs: number;
  readonly reduceMs?: number;
  readonly reduceUnits?: number;
  readonly pinnedOpen: boolean;
  readonly clientExtensions?: ClientExtensions;
}

interface SimTrade {
  readonly plan: PlannedTrade;
  readonly entry: number;
  readonly tp?: number;
  readonly sl?: number;
  readonly tslDistance?: number;
  reduce?: { at: Stamp; units: number; price: number };
  /** A stop-loss the trader added some time after the trade opened (none on fill). */
  lateStop?: { at: Stamp; price: number };
  close?: { at: Stamp; price: number; kind: CloseKind; trailingValue?: number };
  trailBest?: number;
  rec?: TradeRec;
}

interface FinancingDay {
  readonly at: number;
  total: number;
  readonly byInstrument: Map<string, number>;
  readonly perTrade: [SimTrade, number][];
}

const TAGS = [
  ['trend', 'trend continuation'],
  ['news', 'pre-release positioning'],
  ['breakout', 'range breakout'],
  ['range', 'fade the range edge'],
  ['scalp', 'session open scalp'],
] as const;

const REWARD_RATIOS = [0.8, 1, 1.2, 1.5, 2, 2.5, 3] as const;

export function generateLedger(market: Market, cfg: LedgerConfig): Ledger {
  const rng = new Rng(cfg.seed, 100);
  const requestRng = new Rng(cfg.seed, 101);
  const nextRequestId = () => requestRng.digits(17);
  const userId = 10_000_000 + Math.floor(rng.next() * 89_999_999);
  const prefix = cfg.environment === 'practice' ? '101-004' : '001-004';
  const accounts = cfg.accounts.map((profile, index) =>
    buildAccount(
      market,
      cfg,
      profile,
      index,
      `${prefix}-${userId}-${String(index + 1).padStart(3, '0')}`,
      userId,
      nextRequestId,
    ),
  );
  return { userId, accounts, nextRequestId };
}

function buildAccount(
  market: Market,
  cfg: LedgerConfig,
  profile: AccountProfile,
  index: number,
  id: string,
  userId: number,
  nextRequestId: () => string,
): AccountRec {
  const rng = new Rng(mix32(cfg.seed) ^ index, 200 + index);
  const historyStart = cfg.nowMs - cfg.historyDays * DAY;
  const createdMs = nextOpenAtOrAfter(
    historyStart - rng.int(5, 30) * DAY - rng.int(0, 20) * HOUR - rng.int(0, 3_599_999),
  );
  const account: AccountRec = {
    index,
    id,
    alias: profile.alias,
    currency: profile.currency,
    userId,
    marginRate: profile.marginRate,
    created: { ms: createdMs, ns: rng.int(0, 999_999) },
    deposit: profile.deposit * 10_000,
    balance: 0,
    pl: 0,
    financing: 0,
    txs: [],
    trades: [],
    tradesById: new Map(),
    tradesByClientId: new Map(),
  };
  const plans = planTrades(rng, profile, historyStart, cfg.nowMs - 10 * MINUTE, cfg.nowMs);
  const sims = simulate(market, plans, cfg.nowMs, mix32(cfg.seed + index * 7919));
  addLateStops(market, sims, cfg.nowMs, new Rng(mix32(cfg.seed) ^ index, 300 + index));
  const financing = financingDays(market, account, sims, cfg.nowMs);
  writeTransactions(market, account, sims, financing, nextRequestId, rng);
  return account;
}

function planTrades(rng: Rng, profile: AccountProfile, fromMs: number, toMs: number, nowMs: number): PlannedTrade[] {
  const count = Math.max(0, Math.floor(profile.trades));
  const times: number[] = [];
  const span = Math.max(toMs - fromMs, HOUR);
  while (times.length < count) {
    const t = fromMs + Math.floor(rng.next() * span);
    if (!isMarketOpen(t)) continue;
    const hour = Math.floor((t % DAY) / HOUR);
    if (rng.next() * 1.5 > session(hour)) continue;
    times.push(t);
  }
  times.sort((a, b) => a - b);
  const totalWeight = INSTRUMENTS.reduce((sum, i) => sum + i.weight, 0);
  let clientSeq = 1000;
  return times.map((openMs, n) => {
    let pickWeight = rng.next() * totalWeight;
    let spec = INSTRUMENTS[0] as InstrumentSpec;
    for (const candidate of INSTRUMENTS) {
      spec = candidate;
      pickWeight -= candidate.weight;
      if (pickWeight < 0) break;
    }
    const lotStep = spec.type === 'METAL' ? 1 : 1000;
    const units = Math.max(lotStep, Math.round((rng.pick(spec.unitChoices) * profile.unitScale) / lotStep) * lotStep);
    const stops = rng.next();
    const slPips = rng.pick(spec.stopPips);
    const tpPips = Math.round(slPips * rng.pick(REWARD_RATIOS));
    const tslPips = Math.round(rng.pick(spec.stopPips) * 0.8);
    const hasTp = stops < 0.7 || (stops >= 0.76 && stops < 0.79) || (stops >= 0.88 && stops < 0.92);
    const hasSl = stops < 0.76 || (stops >= 0.82 && stops < 0.88);
    const hasTsl = stops >= 0.66 && stops < 0.82;
    const pinnedOpen = n >= count - Math.min(3, count);
    const recent = openMs > nowMs - 10 * DAY;
    const hold = pinnedOpen || (recent && rng.chance(0.5));
    const widen = hold ? 2.5 : 1;
    const holdMs = Math.round(
      Math.min(20 * DAY, Math.max(3 * MINUTE, Math.exp(Math.log(6 * HOUR) + 1.3 * rng.normal()))),
    );
    const manualCloseMs = hold ? Infinity : nextOpenAtOrAfter(openMs + holdMs);
    let reduceMs: number | undefined;
    let reduceUnits: number | undefined;
    if (rng.chance(0.08) && units >= 2 * lotStep) {
      const window = Number.isFinite(manualCloseMs) ? manualCloseMs - openMs : 3 * DAY;
      reduceMs = nextOpenAtOrAfter(openMs + Math.max(MINUTE, Math.floor(window * (0.2 + rng.next() * 0.4))));
      reduceUnits = Math.max(
        lotStep,
        Math.min(units - lotStep, Math.round((units * (0.25 + rng.next() * 0.35)) / lotStep) * lotStep),
      );
    }
    let clientExtensions: ClientExtensions | undefined;
    if (rng.chance(0.08)) {
      const [tag, comment] = rng.pick(TAGS);
      clientExtensions = { id: `${spec.name.replace('_', '').toLowerCase()}-${tag}-${clientSeq++}`, tag, comment };
    }
    return {
      spec,
      dir: rng.chance(0.5) ? 1 : -1,
      units,
      openMs,
      openNs: rng.int(0, 999_999),
      tpPips: hasTp ? Math.round(tpPips * widen) : undefined,
      slPips: hasSl || pinnedOpen ? Math.round(slPips * widen) : undefined,
      tslPips: hasTsl && !pinnedOpen ? tslPips : undefined,
      manualCloseMs,
      reduceMs,
      reduceUnits,
      pinnedOpen,
      clientExtensions,
    };
  });
}

/** Walks every planned trade along its path; positions are not hedged, so overlapping trades on one instrument share a direction. */
function simulate(market: Market, plans: PlannedTrade[], nowMs: number, salt: number): SimTrade[] {
  const openUntil = new Map<string, { until: number; dir: 1 | -1 }[]>();
  return plans.map((plan, n) => {
    const held = (openUntil.get(plan.spec.name) ?? []).filter((h) => h.until > plan.openMs);
    const first = held[0];
    if (first) plan.dir = first.dir;
    const sim = simulateOne(market, plan, nowMs, mix32(salt + n));
    const until = sim.close ? sim.close.at.ms : Infinity;
    held.push({ until, dir: plan.dir });
    openUntil.set(plan.spec.name, held);
    return sim;
  });
}

function simulateOne(market: Market, plan: PlannedTrade, nowMs: number, salt: number): SimTrade {
  const path = market.path(plan.spec);
  const { dir, spec } = plan;
  const hs = spec.halfSpreadTicks;
  const mid0 = path.midAt(plan.openMs);
  const entry = mid0 + dir * hs;
  const pip = spec.pipTicks;
  let tp = plan.tpPips === undefined ? undefined : entry + dir * plan.tpPips * pip;
  let sl = plan.slPips === undefined ? undefined : entry - dir * plan.slPips * pip;
  const tslDistance = plan.tslPips === undefined ? undefined : plan.tslPips * pip;
  if (plan.pinnedOpen) {
    // Keep the trade open until now without contradicting the candles: put its exits outside
    // everything the price has done since it opened.
    const range = favourableRange(path, dir, plan.openMs, nowMs);
    const margin = (plan.slPips ?? 30) * pip;
    const closing = (favourable: number) => dir * favourable - dir * hs;
    if (sl !== undefined)
      sl = dir > 0 ? Math.min(sl, closing(range.min - margin)) : Math.max(sl, closing(range.min - margin));
    if (tp !== undefined)
      tp = dir > 0 ? Math.max(tp, closing(range.max + margin)) : Math.min(tp, closing(range.max + margin));
  }
  const sim: SimTrade = { plan, entry, tp, sl, tslDistance };
  const endMs = Math.min(plan.manualCloseMs, nowMs);
  const scan = scanTrade(path, dir, { tp, sl, tslDistance }, plan.openMs, endMs, dir * mid0, salt);
  const nsOf = (ms: number) => mix32(salt ^ ms) % 1_000_000;
  if (scan.trigger) {
    const t = scan.trigger;
    sim.close = { at: { ms: t.at, ns: nsOf(t.at) }, price: t.price, kind: t.kind, trailingValue: t.trailingValue };
  } else if (plan.manualCloseMs <= nowMs) {
    const at = plan.manualCloseMs;
    sim.close = { at: { ms: at, ns: nsOf(at) }, price: path.midAt(at) - dir * hs, kind: 'MARKET' };
  } else {
    sim.trailBest = scan.best;
  }
  const endOfLife = sim.close ? sim.close.at.ms : nowMs;
  if (
    plan.reduceMs !== undefined &&
    plan.reduceUnits !== undefined &&
    plan.reduceMs < endOfLife &&
    plan.reduceMs > plan.openMs
  ) {
    sim.reduce = {
      at: { ms: plan.reduceMs, ns: nsOf(plan.reduceMs + 1) },
      units: plan.reduceUnits,
      price: path.midAt(plan.reduceMs) - dir * hs,
    };
  }
  return sim;
}

/**
 * Some trades opened without a stop-loss get one later, as traders do once a trade runs: about half of them, at a
 * time a tenth to a half into the trade's life. The stop is placed beyond everything the price does from then
 * on, so it never triggers and the trade's recorded exit stays true to the candles. Drawn from a stream of its own,
 * so the rest of the book is the same as without them.
 */
function addLateStops(market: Market, sims: SimTrade[], nowMs: number, rng: Rng): void {
  for (const sim of sims) {
    const { plan } = sim;
    if (sim.sl !== undefined || plan.pinnedOpen) continue;
    const add = rng.chance(0.5);
    const fraction = 0.1 + rng.next() * 0.4;
    const cushion = rng.pick(plan.spec.stopPips);
    if (!add) continue;
    const end = sim.close ? sim.close.at.ms : nowMs;
    const at = nextOpenAtOrAfter(plan.openMs + Math.max(MINUTE, Math.floor((end - plan.openMs) * fraction)));
    if (at >= end || (sim.reduce && Math.abs(sim.reduce.at.ms - at) < MINUTE)) continue;
    const path = market.path(plan.spec);
    const range = favourableRange(path, plan.dir, at, end);
    // Closing side, in favourable terms, below the worst the price does from `at` to the end.
    const level = plan.dir * (range.min - cushion * plan.spec.pipTicks) - plan.dir * plan.spec.halfSpreadTicks;
    sim.lateStop = { at: { ms: at, ns: mix32(at) % 1_000_000 }, price: Math.round(level) };
  }
}

function financingDays(
  market: Market,
  account: AccountRec,
  sims: SimTrade[],
  nowMs: number,
): Map<number, FinancingDay> {
  const days = new Map<number, FinancingDay>();
  for (const sim of sims) {
    const { spec, dir, units, openMs } = sim.plan;
    const end = sim.close ? sim.close.at.ms : nowMs;
    const rate = Number(dir > 0 ? spec.financing.longRate : spec.financing.shortRate);
    for (const { at, days: charged } of rolloversBetween(openMs, end)) {
      const held = sim.reduce && sim.reduce.at.ms < at ? units - sim.reduce.units : units;
      const value = held * market.mid(spec.name, at) * market.conversion(spec.quote, account.currency, at);
      const amount = toMoneyUnits((value * rate * charged) / 365);
      if (amount === 0) continue;
      let day = days.get(at);
      if (!day) {
        day = { at, total: 0, byInstrument: new Map(), perTrade: [] };
        days.set(at, day);
      }
      day.total += amount;
      day.byInstrument.set(spec.name, (day.byInstrument.get(spec.name) ?? 0) + amount);
      day.perTrade.push([sim, amount]);
    }
  }
  return days;
}

type LedgerEvent =
  | {
      readonly ms: number;
      readonly ns: number;
      readonly rank: 0 | 1 | 2;
      readonly kind: 'open' | 'stop' | 'reduce' | 'close';
      readonly sim: SimTrade;
    }
  | {
      readonly ms: number;
      readonly ns: number;
      readonly rank: 3;
      readonly kind: 'financing';
      readonly day: FinancingDay;
    };

function writeTransactions(
  market: Market,
  account: AccountRec,
  sims: SimTrade[],
  financing: Map<number, FinancingDay>,
  nextRequestId: () => string,
  rng: Rng,
): void {
  const events: LedgerEvent[] = [];
  for (const sim of sims) {
    events.push({ ms: sim.plan.openMs, ns: sim.plan.openNs, rank: 0, kind: 'open', sim });
    if (sim.lateStop) events.push({ ms: sim.lateStop.at.ms, ns: sim.lateStop.at.ns, rank: 1, kind: 'stop', sim });
    if (sim.reduce) events.push({ ms: sim.reduce.at.ms, ns: sim.reduce.at.ns, rank: 1, kind: 'reduce', sim });
    if (sim.close) events.push({ ms: sim.close.at.ms, ns: sim.close.at.ns, rank: 2, kind: 'close', sim });
  }
  for (const day of financing.values()) events.push({ ms: day.at, ns: 0, rank: 3, kind: 'financing', day });
  events.sort((a, b) => a.ms - b.ms || a.ns - b.ns || a.rank - b.rank);

  const writer = new TxWriter(market, account, nextRequestId);
  writer.openAccount(rng);
  for (const ev of events) {
    const at = { ms: ev.ms, ns: ev.ns };
    if (ev.kind === 'financing') {
      writer.dailyFinancing(
        at,
        ev.day.total,
        [...ev.day.byInstrument].map(([instrument, amount]) => ({ instrument, amount })),
        (apply) => {
          for (const [sim, amount] of ev.day.perTrade) if (sim.rec) apply(sim.rec, amount);
        },
      );
      continue;
    }
    const sim = ev.sim;
    if (ev.kind === 'open') {
      sim.rec = writer.openTrade(at, {
        spec: sim.plan.spec,
        units: sim.plan.dir * sim.plan.units,
        price: sim.entry,
        tp: sim.tp,
        sl: sim.sl,
        tslDistance: sim.tslDistance,
        clientExtensions: sim.plan.clientExtensions,
      });
      if (
        sim.rec.tsl &&
        sim.close?.kind !== 'TRAILING_STOP_LOSS' &&
        sim.trailBest !== undefined &&
        sim.tslDistance !== undefined
      ) {
        sim.rec.trailBest = sim.trailBest;
        sim.rec.tsl.trailingValue =
          sim.plan.dir * (sim.trailBest - sim.tslDistance) - sim.plan.dir * sim.plan.spec.halfSpreadTicks;
      }
      continue;
    }
    const rec = sim.rec;
    if (!rec) continue;
    if (ev.kind === 'stop' && sim.lateStop) {
      writer.replaceOrder(at, rec, 'STOP_LOSS', sim.lateStop.price);
    } else if (ev.kind === 'reduce' && sim.reduce) {
      writer.closeUnits(at, rec, sim.reduce.units, sim.reduce.price, 'MARKET');
    } else if (ev.kind === 'close' && sim.close) {
      if (sim.close.kind === 'TRAILING_STOP_LOSS' && rec.tsl) rec.tsl.trailingValue = sim.close.trailingValue;
      writer.closeUnits(at, rec, Math.abs(rec.currentUnits), sim.close.price, sim.close.kind);
    }
  }
}
