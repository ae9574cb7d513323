// The simulated broker's state: seeded accounts plus the queries the endpoints need and the
// mutators tests use to change the book between syncs (each writes the transactions OANDA would).

import { instrumentByName } from './instruments';
import type { AccountRec, ClientExtensions, Stamp, TradeRec } from './ledger-types';
import type { Market } from './market';
import type { Ledger } from './generate';
import { TxWriter } from './tx-writer';

export type TradeStateFilter = 'OPEN' | 'CLOSED' | 'CLOSE_WHEN_TRADEABLE' | 'ALL';

export interface TradeQuery {
  readonly state: TradeStateFilter;
  readonly instrument?: string;
  readonly ids?: ReadonlySet<number>;
  readonly count: number;
  /** Exclusive upper bound on trade ids. */
  readonly beforeId?: number;
}

export interface OpenTradeRequest {
  readonly instrument: string;
  /** Signed units: positive buys, negative sells. */
  readonly units: number;
  /** Prices as OANDA decimal strings or numbers. */
  readonly takeProfit?: string | number;
  readonly stopLoss?: string | number;
  readonly trailingStopDistance?: string | number;
  readonly clientExtensions?: { id: string; tag?: string; comment?: string };
}

export class SimError extends Error {}

export class Broker {
  readonly accounts: readonly AccountRec[];
  private readonly byId: Map<string, AccountRec>;
  private readonly writers = new Map<AccountRec, TxWriter>();
  private nanoCounter = 0;

  constructor(
    readonly market: Market,
    readonly ledger: Ledger,
    private readonly clock: () => number,
  ) {
    this.accounts = ledger.accounts;
    this.byId = new Map(ledger.accounts.map((a) => [a.id, a]));
  }

  now(): number {
    return this.clock();
  }

  account(id: string): AccountRec | undefined {
    return this.byId.get(id);
  }

  requireAccount(id: string): AccountRec {
    const account = this.byId.get(id);
    if (!account) throw new SimError(`no simulated account ${id}`);
    return account;
  }

  /** Trades matching a List Trades query, newest (highest id) first. */
  listTrades(account: AccountRec, q: TradeQuery): TradeRec[] {
    const trades = account.trades;
    let hi = trades.length;
    if (q.beforeId !== undefined) {
      // Binary search: first index whose id ≥ beforeId.
      let lo = 0;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((trades[mid]?.id ?? 0) < q.beforeId) lo = mid + 1;
        else hi = mid;
      }
    }
    const out: TradeRec[] = [];
    for (let i = hi - 1; i >= 0 && out.length < q.count; i--) {
      const rec = trades[i];
      if (!rec) continue;
      if (q.state === 'OPEN' && rec.state !== 'OPEN') continue;
      if (q.state === 'CLOSED' && rec.state !== 'CLOSED') continue;
      // The simulator never halts an instrument, so no trade waits to close when tradeable.
      if (q.state === 'CLOSE_WHEN_TRADEABLE') continue;
      if (q.instrument !== undefined && rec.spec.name !== q.instrument) continue;
      if (q.ids && !q.ids.has(rec.id)) continue;
      out.push(rec);
    }
    return out;
  }

  /** A trade by id ("5285") or client id ("@eurusd-trend-1001"). */
  findTrade(account: AccountRec, specifier: string): TradeRec | undefined {
    if (specifier.startsWith('@')) return account.tradesByClientId.get(specifier.slice(1));
    if (!/^\d+$/.test(specifier)) return undefined;
    return account.tradesById.get(Number(specifier));
  }

  private writer(account: AccountRec): TxWriter {
    let writer = this.writers.get(account);
    if (!writer) {
      writer = new TxWriter(this.market, account, this.ledger.nextRequestId);
      this.writers.set(account, writer);
    }
    return writer;
  }

  /** "Now" for a new transaction: never earlier than the account's last one, with distinct nanoseconds. */
  private stamp(account: AccountRec): Stamp {
    const last = account.txs[account.txs.length - 1]?.time;
    let ms = Math.floor(this.clock());
    if (last && ms <= last.ms) ms = last.ms + 1;
    this.nanoCounter = (this.nanoCounter + 7919) % 1_000_000;
    return { ms, ns: this.nanoCounter };
  }

  openTrade(accountId: string, req: OpenTradeRequest): TradeRec {
    const account = this.requireAccount(accountId);
    const spec = instrumentByName(req.instrument);
    if (!spec) throw new SimError(`the simulator does not trade ${req.instrument}`);
    if (!Number.isInteger(req.units) || req.units === 0) throw new SimError('units must be a non-zero integer');
    const ticks = (value: string | number | undefined) =>
      value === undefined ? undefined : Math.round(Number(value) * spec.scale);
    let clientExtensions: ClientExtensions | undefined;
    if (req.clientExtensions) {
      if (account.tradesByClientId.has(req.clientExtensions.id))
        throw new SimError(`client trade id ${req.clientExtensions.id} is in use`);
      clientExtensions = {
        id: req.clientExtensions.id,
        tag: req.clientExtensions.tag ?? '',
        comment: req.clientExtensions.comment ?? '',
      };
    }
    const at = this.stamp(account);
    const dir = Math.sign(req.units);
    const price = this.market.path(spec).midAt(at.ms) + dir * spec.halfSpreadTicks;
    return this.writer(account).openTrade(at, {
      spec,
      units: req.units,
      price,
      tp: ticks(req.takeProfit),
      sl: ticks(req.stopLoss),
      tslDistance: ticks(req.trailingStopDistance),
      clientExtensions,
    });
  }

  /** Closes a trade at market; with `units`, only that many (a reduction). */
  closeTrade(accountId: string, tradeSpecifier: string, units?: number): TradeRec {
    const account = this.requireAccount(accountId);
    const rec = this.findTrade(account, tradeSpecifier);
    if (!rec) throw new SimError(`no trade ${tradeSpecifier} in ${accountId}`);
    if (rec.state !== 'OPEN') throw new SimError(`trade ${rec.id} is already closed`);
    const held = Math.abs(rec.currentUnits);
    const closing = units === undefined ? held : units;
    if (!Number.isInteger(closing) || closing <= 0 || closing > held)
      throw new SimError(`cannot close ${closing} of ${held} units`);
    const at = this.stamp(account);
    const dir = Math.sign(rec.initialUnits);
    const price = this.market.path(rec.spec).midAt(at.ms) - dir * rec.spec.halfSpreadTicks;
    this.writer(account).closeUnits(at, rec, closing, price, 'MARKET');
    return rec;
  }

  /** Sets (replaces) or, with null, cancels a trade's take-profit or stop-loss. */
  setDependentOrder(
    accountId: string,
    tradeSpecifier: string,
    kind: 'TAKE_PROFIT' | 'STOP_LOSS',
    price: string | number | null,
  ): TradeRec {
    const account = this.requireAccount(accountId);
    const rec = this.findTrade(account, tradeSpecifier);
    if (!rec) throw new SimError(`no trade ${tradeSpecifier} in ${accountId}`);
    if (rec.state !== 'OPEN') throw new SimError(`trade ${rec.id} is closed`);
    const ticks = price === null ? null : Math.round(Number(price) * rec.spec.scale);
    this.writer(account).replaceOrder(this.stamp(account), rec, kind, ticks);
    return rec;
  }

  /** Deposits (positive) or withdraws (negative) `amount` of the account currency now: a TRANSFER_FUNDS. */
  transferFunds(accountId: string, amount: string | number, comment?: string): void {
    const account = this.requireAccount(accountId);
    const units = Math.round(Number(amount) * 10_000);
    if (!Number.isSafeInteger(units) || units === 0) throw new SimError('amount must be a non-zero number');
    if (account.balance + units < 0) throw new SimError('a withdrawal cannot exceed the balance');
    this.writer(account).transferFunds(this.stamp(account), units, comment);
  }
}
