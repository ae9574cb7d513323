// Mutators and GET .../changes: a client that applies the changes since its last
// transaction id ends up with exactly the simulator's trades.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim, type WireTrade } from './index';
import { FIXED_NOW, get } from './test-support';

interface ChangesBody {
  changes: {
    ordersCreated: { id: string; type: string; state: string; replacesOrderID?: string }[];
    ordersCancelled: { id: string; replacedByOrderID?: string }[];
    ordersFilled: { id: string }[];
    tradesOpened: { id: string }[];
    tradesReduced: { id: string }[];
    tradesClosed: { id: string }[];
    positions: { instrument: string }[];
    transactions: { id: string; type: string }[];
  };
  state: { trades: { id: string; unrealizedPL: string; marginUsed: string }[] };
  lastTransactionID: string;
}

let now = FIXED_NOW;
let sim: OandaSim;
let account: string;

beforeAll(async () => {
  sim = await startOandaSim({ seed: 17, tradesPerAccount: 200, accounts: 1, now: () => now });
  account = sim.accountIds[0] as string;
});
afterAll(() => sim.close());

async function changesSince(id: string): Promise<ChangesBody> {
  const res = await get<ChangesBody>(sim, `/v3/accounts/${account}/changes?sinceTransactionID=${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('changes', () => {
  it('is empty since the last transaction', async () => {
    const last = sim.state.lastTransactionID(account);
    const body = await changesSince(last);
    expect(body.lastTransactionID).toBe(last);
    expect(body.changes.transactions).toEqual([]);
    expect(body.changes.tradesOpened).toEqual([]);
    expect(body.state.trades.map((t) => t.id)).toEqual(
      sim.state
        .trades(account, 'OPEN')
        .map((t) => t.id)
        .reverse(),
    );
  });

  it('rejects a missing, malformed or future sinceTransactionID', async () => {
    expect((await get(sim, `/v3/accounts/${account}/changes`)).status).toBe(400);
    expect((await get(sim, `/v3/accounts/${account}/changes?sinceTransactionID=abc`)).status).toBe(400);
    const future = Number(sim.state.lastTransactionID(account)) + 5;
    expect((await get(sim, `/v3/accounts/${account}/changes?sinceTransactionID=${future}`)).status).toBe(416);
  });

  it('reports opened, reduced and closed trades and order changes, enough for an incremental sync', async () => {
    // The client's copy after a full sync.
    const local = new Map<string, WireTrade>(sim.state.trades(account).map((t) => [t.id, t]));
    const since = sim.state.lastTransactionID(account);
    const [first, second] = sim.state.trades(account, 'OPEN');
    expect(first && second).toBeTruthy();

    now += 60_000;
    const opened = sim.openTrade(account, {
      instrument: 'EUR_USD',
      units: 12_000,
      takeProfit: '1.20000',
      stopLoss: '1.15000',
      clientExtensions: { id: 'e2e-1', tag: 'test' },
    });
    now += 60_000;
    const held = Math.abs(Number(first?.currentUnits));
    const reduced = sim.closeTrade(account, first?.id as string, { units: Math.max(1, Math.floor(held / 2)) });
    now += 60_000;
    const closed = sim.closeTrade(account, second?.id as string);
    now += 60_000;
    const moved = sim.setStopLoss(account, opened.id, '1.15500');

    expect(opened.state).toBe('OPEN');
    expect(opened.clientExtensions).toEqual({ id: 'e2e-1', tag: 'test', comment: '' });
    expect(reduced.state).toBe('OPEN');
    expect(Number(reduced.currentUnits)).not.toBe(Number(reduced.initialUnits));
    expect(closed.state).toBe('CLOSED');
    expect(moved.stopLossOrder?.price).toBe('1.15500');

    const body = await changesSince(since);
    const c = body.changes;
    expect(body.lastTransactionID).toBe(sim.state.lastTransactionID(account));
    expect(Number(c.transactions[0]?.id)).toBe(Number(since) + 1);
    expect(c.transactions.at(-1)?.id).toBe(body.lastTransactionID);
    expect(c.tradesOpened.map((t) => t.id)).toEqual([opened.id]);
    expect(c.tradesReduced.map((t) => t.id)).toEqual([reduced.id]);
    expect(c.tradesClosed.map((t) => t.id)).toEqual([closed.id]);
    expect(c.ordersCreated.some((o) => o.type === 'MARKET' && o.state === 'FILLED')).toBe(true);
    const replacement = c.ordersCreated.find((o) => o.replacesOrderID !== undefined);
    expect(replacement?.id).toBe(moved.stopLossOrder?.id);
    expect(c.ordersCancelled.some((o) => o.replacedByOrderID === replacement?.id)).toBe(true);
    expect(c.positions.map((p) => p.instrument)).toContain('EUR_USD');

    // Apply the changes: re-fetch every trade they name, upsert, and compare with the broker.
    const touched = [...c.tradesOpened, ...c.tradesReduced, ...c.tradesClosed].map((t) => t.id);
    const refreshed = await get<{ trades: WireTrade[] }>(
      sim,
      `/v3/accounts/${account}/trades?state=ALL&ids=${touched.join(',')}`,
    );
    for (const t of refreshed.body.trades) local.set(t.id, t);
    // Prices moved meanwhile: the state section revalues every open trade.
    for (const t of body.state.trades) {
      const copy = local.get(t.id);
      if (copy) local.set(t.id, { ...copy, unrealizedPL: t.unrealizedPL, marginUsed: t.marginUsed });
    }
    const expected = sim.state.trades(account);
    const byId = (a: WireTrade, b: WireTrade) => Number(b.id) - Number(a.id);
    expect([...local.values()].sort(byId)).toEqual(expected);
  });

  it('shows new transactions through sinceid and idrange too', async () => {
    const last = Number(sim.state.lastTransactionID(account));
    const since = await get<{ transactions: { id: string }[] }>(
      sim,
      `/v3/accounts/${account}/transactions/sinceid?id=${last - 3}`,
    );
    expect(since.body.transactions.map((t) => Number(t.id))).toEqual([last - 2, last - 1, last]);
    const range = await get<{ transactions: { id: string; type: string }[] }>(
      sim,
      `/v3/accounts/${account}/transactions/idrange?from=1&to=3`,
    );
    expect(range.body.transactions.map((t) => t.type)).toEqual(['CREATE', 'CLIENT_CONFIGURE', 'TRANSFER_FUNDS']);
    const missing = await get(sim, `/v3/accounts/${account}/transactions/${last + 100}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ errorCode: 'NO_SUCH_TRANSACTION', lastTransactionID: String(last) });
  });

  it("answers an idrange's type filter as OANDA does: only the named types, the groups, a 400 for a name it lacks", async () => {
    const last = Number(sim.state.lastTransactionID(account));
    type Body = { transactions: { id: string; type: string }[]; errorMessage?: string };
    const range = (type: string) =>
      get<Body>(sim, `/v3/accounts/${account}/transactions/idrange?from=1&to=${last}&type=${type}`);
    const all = (await get<Body>(sim, `/v3/accounts/${account}/transactions/idrange?from=1&to=${last}`)).body;
    const named = await range('STOP_LOSS_ORDER,ORDER_CANCEL,TRANSFER_FUNDS');
    expect(named.status).toBe(200);
    const wanted = new Set(['STOP_LOSS_ORDER', 'ORDER_CANCEL', 'TRANSFER_FUNDS']);
    expect(named.body.transactions).toEqual(all.transactions.filter((t) => wanted.has(t.type)));
    expect(new Set(named.body.transactions.map((t) => t.type))).toEqual(wanted);
    const funding = await range('FUNDING');
    expect(funding.body.transactions.map((t) => t.type)).toEqual(
      all.transactions.filter((t) => t.type === 'TRANSFER_FUNDS').map((t) => t.type),
    );
    // A range with nothing of the filter's types answers an empty list, not an error.
    const fills = all.transactions.filter((t) => t.type === 'ORDER_FILL').map((t) => t.id);
    const lone = await get<Body>(
      sim,
      `/v3/accounts/${account}/transactions/idrange?from=${fills[0]}&to=${fills[0]}&type=STOP_LOSS_ORDER`,
    );
    expect([lone.status, lone.body.transactions]).toEqual([200, []]);
    for (const name of ['DIVIDEND_ADJUSTMENT', 'FIXED_PRICE_ORDER', 'TRANSFER_FUNDS,FUNDS']) {
      const refused = await range(name);
      expect([refused.status, refused.body.errorMessage], name).toEqual([400, "Invalid value specified for 'type'"]);
    }
  });

  it('refuses impossible mutations', () => {
    const closed = sim.state.trades(account, 'CLOSED')[0] as WireTrade;
    expect(() => sim.closeTrade(account, closed.id)).toThrow(/already closed/);
    expect(() => sim.openTrade(account, { instrument: 'USD_CAD', units: 1000 })).toThrow(/does not trade/);
    expect(() => sim.openTrade(account, { instrument: 'EUR_USD', units: 0 })).toThrow(/non-zero/);
  });
});
