// The simulator's bodies against the reference fixtures: same keys, same JSON types, same
// decimal/id/time formats, same error texts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim, type WireTrade } from './index';
import { DIGITS, FIXED_NOW, MONEY, RFC3339_NANO, fixture, get, shapeOf } from './test-support';

let sim: OandaSim;
let account: string;

beforeAll(async () => {
  sim = await startOandaSim({ seed: 7, tradesPerAccount: 400, accounts: 2, now: () => FIXED_NOW });
  account = sim.accountIds[0] as string;
});
afterAll(() => sim.close());

function trades(state: 'OPEN' | 'CLOSED'): WireTrade[] {
  return sim.state.trades(account, state);
}

/** Every key we send must exist in the fixture with the same JSON type. */
function expectSubsetShape(ours: Record<string, unknown>, reference: Record<string, unknown>): void {
  const ref = shapeOf(reference);
  for (const [key, type] of Object.entries(shapeOf(ours))) {
    expect({ key, type }).toEqual({ key, type: ref[key] });
  }
}

describe('accounts', () => {
  it('lists accounts with only id and tags', async () => {
    const { body } = await get<{ accounts: Record<string, unknown>[] }>(sim, '/v3/accounts');
    const ref = fixture<{ accounts: Record<string, unknown>[] }>('accounts.json');
    expect(body.accounts).toHaveLength(2);
    for (const a of body.accounts) expect(shapeOf(a)).toEqual(shapeOf(ref.accounts[0] as Record<string, unknown>));
  });

  it('answers the summary with the fixture keys, in order, and OANDA formats', async () => {
    const { status, headers, body } = await get<{ account: Record<string, unknown>; lastTransactionID: string }>(
      sim,
      `/v3/accounts/${account}/summary`,
    );
    const ref = fixture<{ account: Record<string, unknown> }>('account.101-004-27183640-001.summary.json');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('requestid')).toMatch(DIGITS);
    expect(Object.keys(body.account)).toEqual(Object.keys(ref.account));
    expect(shapeOf(body.account)).toEqual(shapeOf(ref.account));
    for (const key of [
      'balance',
      'NAV',
      'unrealizedPL',
      'marginUsed',
      'marginAvailable',
      'pl',
      'financing',
      'positionValue',
    ]) {
      expect(body.account[key]).toMatch(MONEY);
    }
    expect(body.account.marginCloseoutPercent).toMatch(/^\d+\.\d{5}$/);
    expect(body.account.createdTime).toMatch(RFC3339_NANO);
    expect(body.lastTransactionID).toMatch(DIGITS);
  });

  it('gives an empty account the shape of the empty fixture account', async () => {
    const empty = await startOandaSim({
      seed: 3,
      accounts: [{ currency: 'EUR', deposit: 5000, trades: 0 }],
      now: () => FIXED_NOW,
    });
    try {
      const { body } = await get<{ account: Record<string, unknown> }>(
        empty,
        `/v3/accounts/${empty.accountIds[0]}/summary`,
      );
      const ref = fixture<{ account: Record<string, unknown> }>('account.101-004-27183640-002.summary.json');
      expect(Object.keys(body.account)).toEqual(Object.keys(ref.account));
      expect(body.account).toMatchObject({
        currency: 'EUR',
        balance: '5000.0000',
        NAV: '5000.0000',
        openTradeCount: 0,
        lastTransactionID: '3',
      });
    } finally {
      await empty.close();
    }
  });

  it('returns account details with the fixture top-level keys and TradeSummary trades', async () => {
    const { body } = await get<{ account: Record<string, unknown> }>(sim, `/v3/accounts/${account}`);
    const ref = fixture<{ account: Record<string, unknown> }>('account.101-004-27183640-001.details.json');
    expect(Object.keys(body.account)).toEqual(Object.keys(ref.account));
    const refTrade = (ref.account.trades as Record<string, unknown>[])[0] as Record<string, unknown>;
    for (const t of body.account.trades as Record<string, unknown>[]) {
      expectSubsetShape(t, { ...refTrade, averageClosePrice: '', closingTransactionIDs: [] });
      expect(t).not.toHaveProperty('takeProfitOrder');
    }
    const refPosition = (ref.account.positions as Record<string, unknown>[])[0] as Record<string, unknown>;
    for (const p of body.account.positions as Record<string, unknown>[])
      expect(Object.keys(p)).toEqual(Object.keys(refPosition));
  });
});

describe('trades', () => {
  it('shapes open trades like trade.5285.json', () => {
    const ref = fixture<{ trade: Record<string, unknown> }>('trade.5285.json').trade;
    const open = trades('OPEN');
    expect(open.length).toBeGreaterThan(0);
    for (const t of open) {
      expectSubsetShape(t as unknown as Record<string, unknown>, {
        ...ref,
        averageClosePrice: '',
        closingTransactionIDs: [],
      });
      expect(t.unrealizedPL).toMatch(MONEY);
      expect(t.marginUsed).toMatch(MONEY);
      expect(t).not.toHaveProperty('closeTime');
      for (const order of [t.takeProfitOrder, t.stopLossOrder, t.trailingStopLossOrder]) {
        if (!order) continue;
        const refOrder =
          ref[
            order.type === 'TAKE_PROFIT'
              ? 'takeProfitOrder'
              : order.type === 'STOP_LOSS'
                ? 'stopLossOrder'
                : 'trailingStopLossOrder'
          ];
        expect(Object.keys(order).filter((k) => k !== 'clientTradeID')).toEqual(
          Object.keys(refOrder as object).filter((k) => k !== 'clientTradeID'),
        );
      }
    }
  });

  it('shapes closed trades like trade.5253.json: no unrealizedPL or marginUsed', () => {
    const ref = fixture<{ trade: Record<string, unknown> }>('trade.5253.json').trade;
    const closed = trades('CLOSED');
    expect(closed.length).toBeGreaterThan(100);
    for (const t of closed) {
      const keys = Object.keys(t).filter(
        (k) => !['clientExtensions', 'takeProfitOrder', 'stopLossOrder', 'trailingStopLossOrder'].includes(k),
      );
      expect(keys).toEqual(Object.keys(ref).filter((k) => !['takeProfitOrder', 'stopLossOrder'].includes(k)));
      expect(t.currentUnits).toBe('0');
      expect(t.closeTime).toMatch(RFC3339_NANO);
      expect(t.realizedPL).toMatch(MONEY);
    }
    const stoppedOut = closed.find(
      (t) => t.stopLossOrder?.state === 'FILLED' && t.takeProfitOrder?.state === 'CANCELLED',
    );
    expect(stoppedOut).toBeDefined();
    const refSl = ref.stopLossOrder as Record<string, unknown>;
    const refTp = ref.takeProfitOrder as Record<string, unknown>;
    const strip = (o: object) => Object.keys(o).filter((k) => k !== 'clientTradeID');
    expect(strip(stoppedOut?.stopLossOrder as object)).toEqual(strip(refSl));
    expect(strip(stoppedOut?.takeProfitOrder as object)).toEqual(strip(refTp));
    expect(stoppedOut?.stopLossOrder?.tradeClosedIDs).toEqual([stoppedOut?.id]);
  });

  it('formats prices with the instrument display precision and units as integers', () => {
    for (const t of trades('CLOSED').slice(0, 200)) {
      const decimals = t.instrument.endsWith('_JPY') || t.instrument === 'XAU_USD' ? 3 : 5;
      expect(t.price).toMatch(new RegExp(`^\\d+\\.\\d{${decimals}}$`));
      expect(t.averageClosePrice).toMatch(new RegExp(`^\\d+\\.\\d{${decimals}}$`));
      expect(t.initialUnits).toMatch(/^-?[1-9]\d*$/);
      expect(t.id).toMatch(DIGITS);
      expect(t.openTime).toMatch(RFC3339_NANO);
    }
  });
});

describe('changes and transactions', () => {
  it('answers /changes with the fixture keys', async () => {
    const ref = fixture<{ changes: Record<string, unknown>; state: Record<string, unknown> }>(
      'account.101-004-27183640-001.changes.sinceTransactionID-5306.json',
    );
    const last = Number(sim.state.lastTransactionID(account));
    const { body } = await get<{
      changes: Record<string, unknown>;
      state: Record<string, unknown>;
      lastTransactionID: string;
    }>(sim, `/v3/accounts/${account}/changes?sinceTransactionID=${last - 40}`);
    expect(Object.keys(body)).toEqual(['changes', 'state', 'lastTransactionID']);
    expect(Object.keys(body.changes)).toEqual(Object.keys(ref.changes));
    expect(Object.keys(body.state)).toEqual(Object.keys(ref.state));
    expect((body.changes.transactions as unknown[]).length).toBe(40);
  });

  it('shapes transactions like the idrange fixture, type by type', async () => {
    const ref = [
      ...fixture<{ transactions: Record<string, unknown>[] }>('transactions.idrange-first-page.json').transactions,
      ...fixture<{ transactions: Record<string, unknown>[] }>('transactions.sinceid-5306.json').transactions,
    ];
    const refKeys = new Map<string, Set<string>>();
    for (const tx of ref) {
      const keys = refKeys.get(tx.type as string) ?? new Set<string>();
      for (const k of Object.keys(tx)) keys.add(k);
      refKeys.set(tx.type as string, keys);
    }
    const { body } = await get<{ transactions: Record<string, unknown>[] }>(
      sim,
      `/v3/accounts/${account}/transactions/idrange?from=1&to=400`,
    );
    expect(body.transactions.length).toBeGreaterThan(100);
    for (const tx of body.transactions) {
      if (['CREATE', 'CLIENT_CONFIGURE', 'TRANSFER_FUNDS'].includes(tx.type as string)) continue;
      const known = refKeys.get(tx.type as string);
      expect(known, `fixture has ${String(tx.type)}`).toBeDefined();
      for (const key of Object.keys(tx)) expect(known?.has(key), `${String(tx.type)}.${key}`).toBe(true);
      expect(tx.time).toMatch(RFC3339_NANO);
      expect(typeof tx.userID).toBe('number');
    }
  });

  it('lists transaction pages, not transactions', async () => {
    const ref = fixture('transactions.list.json');
    const { body } = await get(sim, `/v3/accounts/${account}/transactions?pageSize=1000`);
    expect(Object.keys(body)).toEqual(Object.keys(ref));
    expect(body.count).toBe(Number(sim.state.lastTransactionID(account)));
    expect((body.pages as string[])[0]).toBe(`${sim.url}/v3/accounts/${account}/transactions/idrange?from=1&to=1000`);
  });
});

describe('candles', () => {
  it('shapes M candles like the EUR_USD M5 fixture, last one incomplete', async () => {
    const ref = fixture<{ candles: Record<string, unknown>[] }>('candles.EUR_USD.M5.price-M.count-60.json');
    const { body } = await get<{ candles: Record<string, unknown>[] }>(
      sim,
      '/v3/instruments/EUR_USD/candles?price=M&granularity=M5&count=60',
    );
    expect(Object.keys(body)).toEqual(Object.keys(ref));
    expect(body.candles).toHaveLength(60);
    for (const c of body.candles) {
      expect(Object.keys(c)).toEqual(Object.keys(ref.candles[0] as object));
      expect(shapeOf(c)).toEqual(shapeOf(ref.candles[0] as Record<string, unknown>));
      expect(Object.values(c.mid as object).every((p) => /^\d\.\d{5}$/.test(p as string))).toBe(true);
    }
    expect(body.candles.at(-1)?.complete).toBe(false);
    expect(body.candles.at(-2)?.complete).toBe(true);
    expect(body.candles.at(-1)?.time).toBe('2025-10-03T14:30:00.000000000Z');
  });

  it('shapes BAM daily candles like the USD_JPY D fixture, aligned to 17:00 New York', async () => {
    const ref = fixture<{ candles: Record<string, unknown>[] }>('candles.USD_JPY.D.price-BAM.count-20.json');
    const { body } = await get<{ candles: Record<string, unknown>[] }>(
      sim,
      '/v3/instruments/USD_JPY/candles?price=BAM&granularity=D&count=20',
    );
    expect(body.candles.map((c) => c.time)).toEqual(ref.candles.map((c) => c.time));
    for (const c of body.candles) expect(Object.keys(c)).toEqual(Object.keys(ref.candles[0] as object));
  });
});

describe('errors', () => {
  const cases: [string, string, string | null][] = [
    [
      '/v3/instruments/EUR_USD/candles?granularity=M5&count=5001',
      'errors/400.count-exceeded.json',
      undefined as unknown as string,
    ],
    [
      '/v3/instruments/EUR_USD/candles?granularity=M7',
      'errors/400.invalid-granularity.json',
      undefined as unknown as string,
    ],
    [
      '/v3/instruments/EURUSD/candles?granularity=M5',
      'errors/400.invalid-instrument.json',
      undefined as unknown as string,
    ],
    ['/v3/accounts', 'errors/401.insufficient-authorization.json', 'revoked-or-wrong-environment-token'],
    ['/v3/accounts/101-004-99999999-001/summary', 'errors/403.forbidden.json', undefined as unknown as string],
  ];
  it.each(cases)('GET %s answers exactly %s', async (path, file, token) => {
    const expected = fixture(file);
    const status = Number(file.slice(7, 10));
    const res = await get(sim, path, token === undefined ? {} : { token });
    expect(res.status).toBe(status);
    expect(res.body).toEqual(expected);
    expect(res.headers.get('requestid')).toMatch(DIGITS);
  });

  it('answers an unknown trade with NO_SUCH_TRADE and the last transaction id', async () => {
    const res = await get(sim, `/v3/accounts/${account}/trades/999999`);
    const ref = fixture('errors/404.no-such-trade.json');
    expect(res.status).toBe(404);
    expect(Object.keys(res.body)).toEqual(Object.keys(ref));
    expect(res.body).toEqual({ ...ref, lastTransactionID: sim.state.lastTransactionID(account) });
  });

  it('answers a wrong method with 405', async () => {
    const res = await get(sim, `/v3/accounts/${account}/trades`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.body).toEqual(fixture('errors/405.method-not-allowed.json'));
  });
});
