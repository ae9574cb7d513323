// GET .../trades as OANDA serves it: default state OPEN, newest first by numeric id, count
// default 50 / max 500, exclusive beforeID, Link to the next page, filters.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim, type WireTrade } from './index';
import { FIXED_NOW, fixture, get } from './test-support';

type TradesBody = { trades: WireTrade[]; lastTransactionID: string };

let sim: OandaSim;
let account: string;

beforeAll(async () => {
  sim = await startOandaSim({ seed: 11, tradesPerAccount: 700, accounts: 2, now: () => FIXED_NOW });
  account = sim.accountIds[0] as string;
});
afterAll(() => sim.close());

function nextLink(headers: Headers): string | undefined {
  const link = headers.get('link');
  if (!link) return undefined;
  const m = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(m, link).not.toBeNull();
  return m?.[1];
}

describe('List Trades', () => {
  it('returns only OPEN trades when no state is given', async () => {
    const { body } = await get<TradesBody>(sim, `/v3/accounts/${account}/trades`);
    expect(body.trades.length).toBeGreaterThan(0);
    expect(body.trades.every((t) => t.state === 'OPEN')).toBe(true);
    expect(body.trades.map((t) => t.id)).toEqual(sim.state.trades(account, 'OPEN').map((t) => t.id));
    expect(body.lastTransactionID).toBe(sim.state.lastTransactionID(account));
  });

  it('pages state=ALL with beforeID until an empty page, yielding every trade exactly once, newest first', async () => {
    const seen: string[] = [];
    let path: string | undefined = `/v3/accounts/${account}/trades?state=ALL&count=500`;
    let pages = 0;
    while (path) {
      const res: { body: TradesBody; headers: Headers } = await get<TradesBody>(sim, path);
      pages++;
      if (res.body.trades.length === 0) {
        expect(res.headers.get('link')).toBeNull();
        break;
      }
      seen.push(...res.body.trades.map((t) => t.id));
      const link = nextLink(res.headers);
      expect(link).toBeDefined();
      path = link?.slice(sim.url.length);
    }
    const all = sim.state.trades(account, 'ALL').map((t) => t.id);
    expect(all).toHaveLength(700);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
    const numeric = seen.map(Number);
    expect(numeric).toEqual([...numeric].sort((a, b) => b - a));
    // Ids cross digit-count boundaries, so a string sort would disagree with the numeric order.
    expect([...seen].sort().reverse()).not.toEqual(seen);
    expect(pages).toBe(3);
  });

  it('builds the Link like OANDA: oldest id on the page as beforeID, other parameters repeated in order', async () => {
    const res = await get<TradesBody>(sim, `/v3/accounts/${account}/trades?state=ALL&count=20`);
    expect(res.body.trades).toHaveLength(20);
    const oldest = res.body.trades.at(-1)?.id;
    expect(res.headers.get('link')).toBe(
      `<${sim.url}/v3/accounts/${account}/trades?beforeID=${oldest}&count=20&state=ALL>; rel="next"`,
    );
    const page2 = await get<TradesBody>(sim, `/v3/accounts/${account}/trades?state=ALL&count=20&beforeID=${oldest}`);
    expect(page2.body.trades.every((t) => Number(t.id) < Number(oldest))).toBe(true);
    expect(page2.body.trades[0]?.id).toBe(sim.state.trades(account)[20]?.id);
  });

  it('defaults count to 50 and caps it at 500 with the real error body', async () => {
    const { body } = await get<TradesBody>(sim, `/v3/accounts/${account}/trades?state=CLOSED`);
    expect(body.trades).toHaveLength(50);
    const ok = await get<TradesBody>(sim, `/v3/accounts/${account}/trades?state=ALL&count=500`);
    expect(ok.body.trades).toHaveLength(500);
    const tooMany = await get(sim, `/v3/accounts/${account}/trades?state=ALL&count=501`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual(fixture('errors/400.count-exceeded.json'));
  });

  it('filters by instrument, state and ids', async () => {
    const { body } = await get<TradesBody>(
      sim,
      `/v3/accounts/${account}/trades?state=CLOSED&instrument=EUR_USD&count=500`,
    );
    expect(body.trades.length).toBeGreaterThan(10);
    expect(body.trades.every((t) => t.instrument === 'EUR_USD' && t.state === 'CLOSED')).toBe(true);
    const expected = sim.state.trades(account, 'CLOSED').filter((t) => t.instrument === 'EUR_USD');
    expect(body.trades.map((t) => t.id)).toEqual(expected.map((t) => t.id));
    const pick = sim.state
      .trades(account, 'ALL')
      .filter((_, i) => i % 97 === 0)
      .map((t) => t.id);
    const byIds = await get<TradesBody>(sim, `/v3/accounts/${account}/trades?state=ALL&ids=${pick.join(',')}`);
    expect(byIds.body.trades.map((t) => t.id)).toEqual(pick);
    const unknownInstrument = await get<TradesBody>(sim, `/v3/accounts/${account}/trades?state=ALL&instrument=USD_CAD`);
    expect(unknownInstrument.body.trades).toEqual([]);
  });

  it('rejects malformed parameters with 400', async () => {
    for (const q of ['state=SOME', 'count=abc', 'count=0', 'beforeID=x1', 'ids=1,a', 'instrument=EURUSD']) {
      const res = await get(sim, `/v3/accounts/${account}/trades?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.errorMessage, q).toMatch(/^Invalid value specified for '/);
    }
  });
});

describe('open trades and single trades', () => {
  it('lists open trades unpaginated', async () => {
    const { body } = await get<TradesBody>(sim, `/v3/accounts/${account}/openTrades`);
    expect(body.trades.map((t) => t.id)).toEqual(sim.state.trades(account, 'OPEN').map((t) => t.id));
    expect(body.trades.length).toBe(sim.state.summary(account).openTradeCount);
  });

  it('gets a trade by id and by @clientID', async () => {
    const withClient = sim.state.trades(account).find((t) => t.clientExtensions);
    expect(withClient).toBeDefined();
    const t = withClient as WireTrade;
    const byId = await get<{ trade: WireTrade }>(sim, `/v3/accounts/${account}/trades/${t.id}`);
    expect(byId.body.trade).toEqual(t);
    const byClient = await get<{ trade: WireTrade }>(
      sim,
      `/v3/accounts/${account}/trades/@${encodeURIComponent(t.clientExtensions?.id ?? '')}`,
    );
    expect(byClient.body.trade.id).toBe(t.id);
  });
});
