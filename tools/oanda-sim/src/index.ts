// @pipsense/oanda-sim: an OANDA v20 REST simulator for tests, benchmarks, end-to-end runs and
// the offline demo. See README.md for the options, the CLI and the fault controls.

import type { AddressInfo } from 'node:net';
import { Broker, type OpenTradeRequest } from './broker';
import { Faults, type FaultControl, type LoggedRequest } from './faults';
import { fixedPoint, rfc3339 } from './format';
import { generateLedger, type AccountProfile } from './generate';
import { instrumentByName } from './instruments';
import type { TradeRec } from './ledger-types';
import { HOME_CURRENCIES, Market, type HomeCurrency } from './market';
import { createSimServer } from './server';
import { WireContext, accountSummaryWire, tradeWire } from './wire';
import type { WireAccountSummary, WireTrade } from './wire-types';

export type {
  FaultControl,
  FaultMatcher,
  FaultOptions,
  FailOptions,
  DelayOptions,
  CutOptions,
  FailStatus,
  LoggedRequest,
} from './faults';
export type { OpenTradeRequest } from './broker';
export { SimError } from './broker';
export type * from './wire-types';
export { INSTRUMENTS } from './instruments';
export { GRANULARITIES } from './candles';

/** The practice ("demo") token every simulator accepts by default in the practice environment. */
export const DEMO_TOKEN = '0d5e3f1a9c7b4e2d8f6a1c3e5b7d9f20-4a6c8e0b2d4f6a8c0e2b4d6f8a1c3e5d';
/** The live token accepted by default in the live environment (and rejected, 401, by practice). */
export const LIVE_TOKEN = '7b1d3f5a9c2e4b6d8f0a2c4e6b8d0f13-9e1c3a5d7f9b2e4c6a8d0f2b4e6c8a57';

export type SimEnvironment = 'practice' | 'live';

export interface SimAccountOptions {
  readonly alias?: string;
  readonly currency?: HomeCurrency;
  /** Initial deposit, whole units of the account currency. */
  readonly deposit?: number;
  /** Trades seeded into this account (defaults to `tradesPerAccount`). */
  readonly trades?: number;
  /** Multiplier on position sizes. */
  readonly unitScale?: number;
  /** Account margin rate, e.g. 0.02 (50:1). */
  readonly marginRate?: number;
}

export interface SimOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  readonly port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Seed of every generated value; the same seed and clock give the same data. Default 42. */
  readonly seed?: number;
  /** How many accounts (default 3), or each account's settings. */
  readonly accounts?: number | readonly SimAccountOptions[];
  /** Trades seeded per account (default 1500). */
  readonly tradesPerAccount?: number;
  /** Days of trading history before now (default 540, about 18 months). */
  readonly historyDays?: number;
  /** The one OANDA environment this instance serves (default 'practice'). */
  readonly environment?: SimEnvironment;
  /**
   * Valid bearer tokens and the accounts each may use: 'all', or account indexes / ids. Default:
   * DEMO_TOKEN (practice) or LIVE_TOKEN (live) with every account.
   */
  readonly tokens?: Readonly<Record<string, 'all' | readonly (number | string)[]>>;
  /** The simulator's clock (ms since the epoch or a Date); default Date.now. Data is generated up to its first reading. */
  readonly now?: () => number | Date;
  /** Answer 429 beyond this many requests per second (default: no limit). */
  readonly rateLimit?: number;
}

export interface SimAccountInfo {
  readonly id: string;
  readonly alias: string;
  readonly currency: string;
}

/** Read access to the simulated book, in wire format, for assertions. */
export interface SimState {
  readonly userId: number;
  readonly environment: SimEnvironment;
  readonly accounts: readonly SimAccountInfo[];
  /** Every trade of an account in the given state (default ALL), newest first, as GET .../trades serves them. */
  trades(accountId: string, state?: 'OPEN' | 'CLOSED' | 'ALL'): WireTrade[];
  trade(accountId: string, tradeId: string): WireTrade | undefined;
  summary(accountId: string): WireAccountSummary;
  lastTransactionID(accountId: string): string;
  /** Current (or historical) bid/mid/ask of an instrument, formatted like OANDA. */
  price(instrument: string, at?: number | Date): { bid: string; mid: string; ask: string };
}

export interface OandaSim {
  /** Base URL, e.g. "http://127.0.0.1:41234"; requests go to `${url}/v3/...`. */
  readonly url: string;
  /** The default token of this environment (DEMO_TOKEN or LIVE_TOKEN unless `tokens` says otherwise). */
  readonly token: string;
  /** Every valid token and the account ids it may use. */
  readonly tokens: Readonly<Record<string, readonly string[]>>;
  readonly environment: SimEnvironment;
  readonly accountIds: readonly string[];
  readonly faults: FaultControl;
  readonly state: SimState;
  /** Every request received, oldest first (clear it with `requestLog.length = 0`). */
  readonly requestLog: LoggedRequest[];
  /** Opens a market trade now; writes MARKET_ORDER, ORDER_FILL and dependent-order transactions. */
  openTrade(accountId: string, request: OpenTradeRequest): WireTrade;
  /** Closes a trade at market now, or reduces it by `units`. */
  closeTrade(accountId: string, tradeId: string, options?: { units?: number }): WireTrade;
  /** Replaces (or with null cancels) an open trade's take-profit. */
  setTakeProfit(accountId: string, tradeId: string, price: string | number | null): WireTrade;
  /** Replaces (or with null cancels) an open trade's stop-loss. */
  setStopLoss(accountId: string, tradeId: string, price: string | number | null): WireTrade;
  /** Deposits (positive) or withdraws (negative) an amount of the account currency now: a TRANSFER_FUNDS. */
  transferFunds(accountId: string, amount: string | number, comment?: string): void;
  close(): Promise<void>;
}

const DEFAULT_PROFILES: readonly Omit<AccountProfile, 'trades'>[] = [
  { alias: 'Primary', currency: 'USD', deposit: 50_000, unitScale: 1, marginRate: 0.02 },
  { alias: 'EUR hedge book', currency: 'EUR', deposit: 25_000, unitScale: 0.6, marginRate: 0.0333 },
  { alias: 'Swing', currency: 'USD', deposit: 10_000, unitScale: 0.25, marginRate: 0.02 },
];

function profiles(options: SimOptions): AccountProfile[] {
  const perAccount = options.tradesPerAccount ?? 1500;
  const list: readonly SimAccountOptions[] =
    typeof options.accounts === 'number' || options.accounts === undefined
      ? Array.from({ length: options.accounts ?? 3 }, () => ({}))
      : options.accounts;
  return list.map((o, i) => {
    const base = DEFAULT_PROFILES[i] ?? {
      alias: `Sub-account ${i + 1}`,
      currency: 'USD',
      deposit: 20_000,
      unitScale: 0.5,
      marginRate: 0.02,
    };
    const currency = o.currency ?? base.currency;
    if (!(HOME_CURRENCIES as readonly string[]).includes(currency))
      throw new RangeError(`unsupported account currency ${currency}`);
    return {
      alias: o.alias ?? base.alias,
      currency,
      deposit: o.deposit ?? base.deposit,
      unitScale: o.unitScale ?? base.unitScale,
      marginRate: o.marginRate ?? base.marginRate,
      trades: o.trades ?? perAccount,
    };
  });
}

function toMs(value: number | Date): number {
  return Math.floor(typeof value === 'number' ? value : value.getTime());
}

export async function startOandaSim(options: SimOptions = {}): Promise<OandaSim> {
  const seed = options.seed ?? 42;
  const environment = options.environment ?? 'practice';
  const clock = options.now ? () => toMs((options.now as () => number | Date)()) : () => Date.now();
  const market = new Market(seed);
  const ledger = generateLedger(market, {
    seed,
    nowMs: clock(),
    historyDays: options.historyDays ?? 540,
    environment,
    accounts: profiles(options),
  });
  const broker = new Broker(market, ledger, clock);
  const accountIds = ledger.accounts.map((a) => a.id);

  const tokenSpec = options.tokens ?? { [environment === 'practice' ? DEMO_TOKEN : LIVE_TOKEN]: 'all' };
  const tokens = new Map<string, ReadonlySet<string>>();
  for (const [token, visible] of Object.entries(tokenSpec)) {
    const ids =
      visible === 'all'
        ? accountIds
        : visible.map((v) => {
            const id = typeof v === 'number' ? accountIds[v] : v;
            if (id === undefined || !accountIds.includes(id))
              throw new RangeError(`token ${token.slice(0, 8)}… names unknown account ${String(v)}`);
            return id;
          });
    tokens.set(token, new Set(ids));
  }
  const defaultToken = tokens.keys().next().value;
  if (defaultToken === undefined) throw new RangeError('at least one token is required');

  const faults = new Faults();
  const requestLog: LoggedRequest[] = [];
  const sim = createSimServer({ broker, faults, tokens, requestLog, seed, rateLimit: options.rateLimit });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    sim.server.once('error', reject);
    sim.server.listen(options.port ?? 0, host, () => {
      sim.server.off('error', reject);
      resolve();
    });
  });
  const address = sim.server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const wire = () => new WireContext(market, clock(), rfc3339);
  const tradeOut = (accountId: string, rec: TradeRec) =>
    tradeWire(wire(), broker.requireAccount(accountId), rec) as unknown as WireTrade;

  const state: SimState = {
    userId: ledger.userId,
    environment,
    accounts: ledger.accounts.map((a) => ({ id: a.id, alias: a.alias, currency: a.currency })),
    trades(accountId, filter = 'ALL') {
      const account = broker.requireAccount(accountId);
      const ctx = wire();
      return broker
        .listTrades(account, { state: filter, count: Infinity })
        .map((rec) => tradeWire(ctx, account, rec) as unknown as WireTrade);
    },
    trade(accountId, tradeId) {
      const account = broker.requireAccount(accountId);
      const rec = broker.findTrade(account, tradeId);
      return rec ? (tradeWire(wire(), account, rec) as unknown as WireTrade) : undefined;
    },
    summary(accountId) {
      return accountSummaryWire(wire(), broker.requireAccount(accountId)) as unknown as WireAccountSummary;
    },
    lastTransactionID(accountId) {
      return String(broker.requireAccount(accountId).txs.length);
    },
    price(instrument, at) {
      const spec = instrumentByName(instrument);
      if (!spec) throw new RangeError(`the simulator does not price ${instrument}`);
      const mid = market.path(spec).midAt(at === undefined ? clock() : toMs(at));
      const p = (ticks: number) => fixedPoint(ticks, spec.displayPrecision);
      return { bid: p(mid - spec.halfSpreadTicks), mid: p(mid), ask: p(mid + spec.halfSpreadTicks) };
    },
  };

  return {
    url: `http://${urlHost}:${address.port}`,
    token: defaultToken,
    tokens: Object.fromEntries([...tokens].map(([t, ids]) => [t, [...ids]])),
    environment,
    accountIds,
    faults,
    state,
    requestLog,
    openTrade: (accountId, request) => tradeOut(accountId, broker.openTrade(accountId, request)),
    closeTrade: (accountId, tradeId, opts) => tradeOut(accountId, broker.closeTrade(accountId, tradeId, opts?.units)),
    setTakeProfit: (accountId, tradeId, price) =>
      tradeOut(accountId, broker.setDependentOrder(accountId, tradeId, 'TAKE_PROFIT', price)),
    setStopLoss: (accountId, tradeId, price) =>
      tradeOut(accountId, broker.setDependentOrder(accountId, tradeId, 'STOP_LOSS', price)),
    transferFunds: (accountId, amount, comment) => broker.transferFunds(accountId, amount, comment),
    close: () => sim.close(),
  };
}
