import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFixture } from './oanda-fixture-server';

/**
 * A small mutable v20 server for sync tests: accounts with summaries and trades kept as wire objects, the
 * endpoints the sync uses (accounts, summary, trades with state/count/beforeID/ids, openTrades, trade by id,
 * candles from the recorded fixture), OANDA's default state OPEN and count limit, and a hook for faults.
 */
export type WireTradeObject = { id: string; state: string } & Record<string, unknown>;

export interface LedgerAccount {
  id: string;
  currency: string;
  alias?: string;
  balance: string;
  lastTransactionID: number;
  trades: WireTradeObject[];
  /** Stop-loss order transactions (STOP_LOSS_ORDER), served by the transactions endpoints. */
  stops?: StopTransaction[];
}

interface StopTransaction {
  id: number;
  tradeID: string;
  price?: string;
  distance?: string;
  reason?: 'ON_FILL' | 'CLIENT_ORDER' | 'REPLACEMENT';
  type?: 'STOP_LOSS_ORDER' | 'GUARANTEED_STOP_LOSS_ORDER';
}

type Fault = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;

export interface LedgerServer {
  url: string;
  token: string;
  accounts: Map<string, LedgerAccount>;
  requests: Array<{ path: string; query: Record<string, string> }>;
  /** Faults run before the normal answer; return true when the fault answered. */
  faults: Fault[];
  /** Opens a trade with the next transaction id. */
  open(accountId: string, fields?: Partial<WireTradeObject>): WireTradeObject;
  close(accountId: string, tradeId: string, fields?: Record<string, unknown>): void;
  /** Any change to a trade that takes a transaction (order change, financing). */
  touch(accountId: string, tradeId: string, fields: Record<string, unknown>): void;
  stop(): Promise<void>;
}

const INSTRUMENTS = ['EUR_USD', 'USD_JPY', 'GBP_USD', 'AUD_USD', 'EUR_JPY', 'XAU_USD'] as const;

function iso(ms: number, nanos: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}.${String(nanos).padStart(9, '0')}Z`;
}

/** A realistic closed or open trade with decimals as OANDA writes them. */
export function makeTrade(id: number, state: 'OPEN' | 'CLOSED', seed = id): WireTradeObject {
  const instrument = INSTRUMENTS[seed % INSTRUMENTS.length]!;
  const jpy = instrument.endsWith('JPY') || instrument === 'XAU_USD';
  const price = jpy ? (140 + (seed % 997) / 100).toFixed(3) : (1 + (seed % 9973) / 100000).toFixed(5);
  const units = ((seed % 2 === 0 ? 1 : -1) * (1000 + (seed % 17) * 500)).toString();
  const openMs = Date.UTC(2024, 0, 1) + id * 60_000;
  const trade: WireTradeObject = {
    id: String(id),
    instrument,
    price,
    openTime: iso(openMs, (seed * 7919) % 1_000_000_000),
    initialUnits: units,
    initialMarginRequired: '33.3333',
    state,
    currentUnits: state === 'OPEN' ? units : '0',
    realizedPL: state === 'OPEN' ? '0.0000' : `${seed % 3 === 0 ? '-' : ''}${seed % 500}.1234`,
    financing: `-0.${String(seed % 10_000).padStart(4, '0')}`,
    dividendAdjustment: '0.0000',
    takeProfitOrder: {
      id: String(id + 1),
      type: 'TAKE_PROFIT',
      tradeID: String(id),
      price,
      state: state === 'OPEN' ? 'PENDING' : 'CANCELLED',
    },
    stopLossOrder: {
      id: String(id + 2),
      type: 'STOP_LOSS',
      tradeID: String(id),
      price,
      state: state === 'OPEN' ? 'PENDING' : 'FILLED',
    },
  };
  if (state === 'OPEN') Object.assign(trade, { unrealizedPL: '1.2345', marginUsed: '33.3333' });
  else
    Object.assign(trade, {
      closeTime: iso(openMs + 3_600_000, 5),
      averageClosePrice: price,
      closingTransactionIDs: [String(id + 2)],
    });
  return trade;
}

/** Account `101-004-1-001` with `closed` closed trades and `open` open ones (ids 3 apart, like OANDA's). */
export function seededAccount(id: string, closed: number, open: number, firstId = 100): LedgerAccount {
  const trades: WireTradeObject[] = [];
  let next = firstId;
  for (let i = 0; i < closed + open; i += 1) {
    trades.push(makeTrade(next, i < closed ? 'CLOSED' : 'OPEN'));
    next += 3;
  }
  return { id, currency: 'USD', balance: '100000.0000', lastTransactionID: next, trades };
}

const compare = (a: string, b: string) => (a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0);

export async function startLedgerServer(accounts: LedgerAccount[], token = 'ledger-token-5678'): Promise<LedgerServer> {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const requests: LedgerServer['requests'] = [];
  const faults: Fault[] = [];

  const json = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
      RequestID: '1',
    });
    res.end(text);
  };

  function summary(account: LedgerAccount) {
    const open = account.trades.filter((t) => t.state === 'OPEN');
    return {
      id: account.id,
      ...(account.alias ? { alias: account.alias } : {}),
      currency: account.currency,
      balance: account.balance,
      NAV: account.balance,
      unrealizedPL: '0.0000',
      pl: '0.0000',
      financing: '0.0000',
      commission: '0.0000',
      marginUsed: '0.0000',
      marginAvailable: account.balance,
      positionValue: '0.0000',
      openTradeCount: open.length,
      openPositionCount: new Set(open.map((t) => t['instrument'])).size,
      pendingOrderCount: open.length * 2,
      hedgingEnabled: false,
      createdTime: '2024-01-01T00:00:00.000000000Z',
      resettablePLTime: '0',
      lastTransactionID: String(account.lastTransactionID),
    };
  }

  /** The transactions endpoints over the account's stop-loss order transactions (the only ones it keeps). */
  function transactions(res: ServerResponse, url: URL, account: LedgerAccount, what: string | undefined): void {
    const q = url.searchParams;
    const last = String(account.lastTransactionID);
    const stops = [...(account.stops ?? [])].sort((a, b) => a.id - b.id);
    const wire = (tx: StopTransaction) => ({
      id: String(tx.id),
      accountID: account.id,
      batchID: String(tx.id),
      time: iso(Date.UTC(2024, 0, 1) + tx.id * 60_000, 0),
      type: tx.type ?? 'STOP_LOSS_ORDER',
      tradeID: tx.tradeID,
      ...(tx.price ? { price: tx.price } : {}),
      ...(tx.distance ? { distance: tx.distance } : {}),
      timeInForce: 'GTC',
      triggerCondition: 'DEFAULT',
      reason: tx.reason ?? 'ON_FILL',
    });
    if (what === undefined) {
      const size = Number(q.get('pageSize') ?? 100);
      if (size > 1000) return json(res, 400, { errorMessage: "Maximum value for 'pageSize' exceeded" });
      const pages: string[] = [];
      for (let i = 0; i < stops.length; i += size) {
        const page = stops.slice(i, i + size);
        pages.push(
          `${url.origin}/v3/accounts/${account.id}/transactions/idrange?from=${page[0]!.id}&to=${page.at(-1)!.id}&type=${q.get('type') ?? ''}`,
        );
      }
      return json(res, 200, { count: stops.length, pages, pageSize: size, lastTransactionID: last });
    }
    if (what === 'idrange') {
      const from = Number(q.get('from'));
      const to = Number(q.get('to'));
      const list = stops.filter((t) => t.id >= from && t.id <= to).map(wire);
      return json(res, 200, { transactions: list, lastTransactionID: last });
    }
    if (what === 'sinceid') {
      const id = Number(q.get('id'));
      return json(res, 200, { transactions: stops.filter((t) => t.id > id).map(wire), lastTransactionID: last });
    }
    const id = Number(what);
    const known = stops.find((t) => t.id === id);
    return json(res, 200, {
      transaction: known
        ? wire(known)
        : { id: what, type: 'DAILY_FINANCING', time: iso(Date.UTC(2024, 0, 1) + id * 60_000, 0) },
      lastTransactionID: last,
    });
  }

  function route(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.headers.authorization !== `Bearer ${token}`)
      return json(res, 401, { errorMessage: 'Insufficient authorization to perform request.' });
    const parts = url.pathname.split('/').filter(Boolean); // v3, accounts, id, ...
    if (parts[0] !== 'v3') return json(res, 404, { errorMessage: 'no such path' });
    if (parts[1] === 'accounts' && parts.length === 2)
      return json(res, 200, { accounts: [...byId.keys()].map((id) => ({ id, tags: [] })) });
    if (parts[1] === 'instruments' && parts[3] === 'candles')
      return json(res, 200, readFixture('candles.EUR_USD.M5.price-M.count-60.json'));
    const account = byId.get(decodeURIComponent(parts[2] ?? ''));
    if (parts[1] !== 'accounts' || !account)
      return json(res, 403, { errorMessage: 'The provided request was forbidden.' });
    const last = String(account.lastTransactionID);
    const newestFirst = () => [...account.trades].sort((a, b) => compare(b.id, a.id));
    if (parts[3] === 'summary') return json(res, 200, { account: summary(account), lastTransactionID: last });
    if (parts[3] === 'openTrades')
      return json(res, 200, { trades: newestFirst().filter((t) => t.state === 'OPEN'), lastTransactionID: last });
    if (parts[3] === 'transactions') return transactions(res, url, account, parts[4]);
    if (parts[3] === 'trades' && parts[4]) {
      const trade = account.trades.find((t) => t.id === parts[4]);
      return trade
        ? json(res, 200, { trade, lastTransactionID: last })
        : json(res, 404, {
            lastTransactionID: last,
            errorMessage: 'The trade ID specified does not exist',
            errorCode: 'NO_SUCH_TRADE',
          });
    }
    if (parts[3] === 'trades') {
      const q = url.searchParams;
      const count = Number(q.get('count') ?? 50);
      if (count > 500) return json(res, 400, { errorMessage: "Maximum value for 'count' exceeded" });
      const state = q.get('state') ?? 'OPEN';
      const before = q.get('beforeID');
      const ids = q.get('ids')?.split(',');
      const list = newestFirst()
        .filter((t) => state === 'ALL' || t.state === state)
        .filter((t) => !ids || ids.includes(t.id))
        .filter((t) => !before || compare(t.id, before) < 0)
        .slice(0, count);
      return json(res, 200, { trades: list, lastTransactionID: last });
    }
    json(res, 404, { errorMessage: 'no such path' });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) });
    for (const fault of faults) if (fault(req, res, url)) return;
    route(req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const accountOf = (id: string) => {
    const account = byId.get(id);
    if (!account) throw new Error(`no account ${id}`);
    return account;
  };
  const tradeOf = (accountId: string, tradeId: string) => {
    const trade = accountOf(accountId).trades.find((t) => t.id === tradeId);
    if (!trade) throw new Error(`no trade ${tradeId}`);
    return trade;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    accounts: byId,
    requests,
    faults,
    open(accountId, fields = {}) {
      const account = accountOf(accountId);
      account.lastTransactionID += 3;
      const trade = {
        ...makeTrade(account.lastTransactionID, 'OPEN'),
        ...fields,
        id: String(account.lastTransactionID),
      };
      account.trades.push(trade);
      return trade;
    },
    close(accountId, tradeId, fields = {}) {
      const account = accountOf(accountId);
      const trade = tradeOf(accountId, tradeId);
      account.lastTransactionID += 1;
      delete trade['unrealizedPL'];
      delete trade['marginUsed'];
      Object.assign(trade, {
        state: 'CLOSED',
        currentUnits: '0',
        realizedPL: '12.3400',
        closeTime: '2025-10-03T14:00:00.123456789Z',
        averageClosePrice: trade['price'],
        ...fields,
      });
    },
    touch(accountId, tradeId, fields) {
      accountOf(accountId).lastTransactionID += 1;
      Object.assign(tradeOf(accountId, tradeId), fields);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
