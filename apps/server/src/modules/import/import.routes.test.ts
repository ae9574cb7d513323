import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IMPORT_MAX_BYTES,
  type AccountItem,
  type ImportConfirmResponse,
  type ImportUploadResponse,
  type TradeItem,
} from '@pipsense/contract';
import { createTestApp, type TestApp } from '../../test/harness';
import { encodeUtf16le, mt4Statement, mt5Report, mt5Xlsx } from '../../test/metatrader-reports';

/*
 * The import routes end to end on the suite's database (SQLite, or PostgreSQL): upload → preview → confirm →
 * trades, accounts and the overview with platform=metatrader; re-import; cancel; other users; bad files.
 */
const fixture = (name: string) => readFileSync(new URL(`./parse/fixtures/${name}`, import.meta.url));
const MT5 = fixture('mt5-report.html');
const MT4 = fixture('mt4-statement.htm');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A multipart/form-data body as a browser sends it (the platform's own FormData encoder). */
async function form(file: { bytes: Uint8Array; name: string } | null, fields: Record<string, string> = {}) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  if (file) data.append('file', new Blob([Buffer.from(file.bytes)]), file.name);
  const encoded = new Response(data);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}

async function upload(token: string, bytes: Uint8Array, name = 'report.html', fields: Record<string, string> = {}) {
  const body = await form({ bytes, name }, fields);
  return t.call(token, { method: 'POST', url: '/api/v1/import/upload', ...body });
}
async function uploaded(token: string, bytes: Uint8Array, name?: string, fields?: Record<string, string>) {
  const res = await upload(token, bytes, name, fields);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ImportUploadResponse>();
}
async function confirm(token: string, importId: string, body: object = {}) {
  return t.call(token, { method: 'POST', url: `/api/v1/import/confirm/${importId}`, payload: body });
}
const get = (token: string, url: string) => t.call(token, { method: 'GET', url });
async function trades(token: string, platform: string) {
  const res = await get(token, `/api/v1/trade/get_trade_history?page=1&limit=100&platform=${platform}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: TradeItem[]; total: number }>();
}
async function accounts(token: string, platform: string) {
  const res = await get(token, `/api/v1/account/get_accounts?platform=${platform}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: AccountItem[]; total: number }>();
}

const expectError = async (res: Awaited<ReturnType<typeof upload>>, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ success: boolean; code: string; message: string }>();
  expect(body.success).toBe(false);
  expect(body.code).toBe(code);
  expect(body.message.length).toBeGreaterThan(20);
  return body;
};

describe('an MT5 report: upload, preview, confirm', () => {
  let token: string;
  let preview: ImportUploadResponse;

  beforeAll(async () => {
    token = (await t.user()).token;
    preview = await uploaded(token, MT5, 'ReportHistory-51234567.html');
  });

  it('previews the account, counts, totals and the first trades in UTC, storing nothing', async () => {
    expect(preview.format).toBe('mt5-html');
    expect(preview.preview.account).toEqual({
      number: '51234567',
      name: 'Jane Q. Trader',
      currency: 'USD',
      leverage: null,
      broker: 'Northwind Capital Markets Ltd',
      server: 'Northwind-Live3',
      mode: 'live',
    });
    expect(preview.preview).toMatchObject({
      closedTrades: 10,
      openTrades: 1,
      netProfit: '2455.07',
      reportNetProfit: '2455.07',
      // No rule sent and none remembered: most brokers' clock, New York + 7 h (UTC+3 in April).
      brokerTime: 'ny-close-us',
      serverUtcOffset: null,
      serverUtcOffsets: ['+03:00'],
    });
    expect(preview.preview.skipped.length).toBeGreaterThan(0);
    const first = preview.preview.sample.find((s) => s.tradeId === '70100011')!;
    expect(first).toEqual({
      tradeId: '70100011',
      symbol: 'EURUSD.m',
      instrument: 'EUR_USD',
      side: 'buy',
      lots: '0.5',
      units: '50000',
      openTime: '2024-04-02T06:15:07.000000000Z',
      closeTime: '2024-04-02T11:02:31.000000000Z',
      price: '1.07845',
      averageClosePrice: '1.08156',
      stopLossPrice: '1.07500',
      takeProfitPrice: '1.08400',
      commission: '-3.50',
      swap: '0.00',
      realizedPL: '155.50',
    });
    expect((await trades(token, 'metatrader')).total).toBe(0);
    expect((await accounts(token, 'metatrader')).total).toBe(0);
  });

  it('stores the trades and the account on confirm, apart from OANDA data, and makes MetaTrader the default', async () => {
    const res = await confirm(token, preview.importId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<ImportConfirmResponse>();
    // The 10 closed trades and the one still open (stored open, docs/decisions/012-metatrader-import.md).
    expect(body).toMatchObject({ success: true, added: 11, updated: 0, unchanged: 0 });
    expect(body.accountId).toBe('metatrader:Northwind-Live3:51234567');

    const list = await trades(token, 'metatrader');
    expect(list.total).toBe(11);
    expect(
      list.data.filter((x) => x.state === 'OPEN').map((x) => [x.closeTime, x.currentUnits === x.initialUnits]),
    ).toEqual([[null, true]]);
    const trade = list.data.find((x) => x.tradeId === '70100011')!;
    expect(trade).toMatchObject({
      platform: 'metatrader',
      accountId: 'metatrader:Northwind-Live3:51234567',
      mode: 'live',
      instrument: 'EUR_USD',
      symbol: 'EURUSD.m',
      lots: '0.5',
      initialUnits: '50000',
      price: '1.07845',
      averageClosePrice: '1.08156',
      realizedPL: '155.50',
      commission: '-3.50',
      swap: '0.00',
      state: 'CLOSED',
      openTime: '2024-04-02T06:15:07.000000000Z',
      unrealizedPL: null,
    });
    expect((await trades(token, 'oanda')).total).toBe(0);
    expect((await get(token, '/api/v1/trade/get_trade_history')).json<{ total: number }>().total).toBe(0);

    const acc = await accounts(token, 'metatrader');
    expect(acc.total).toBe(1);
    expect(acc.data[0]).toMatchObject({
      platform: 'metatrader',
      login: '51234567',
      server: 'Northwind-Live3',
      currency: 'USD',
      balance: '10953.67',
      NAV: '10991.67',
      mode: 'live',
      broker: 'Northwind Capital Markets Ltd',
      // A named rule has no one offset: the account says which rule.
      brokerTime: 'ny-close-us',
      serverUtcOffset: null,
    });
    expect((await accounts(token, 'oanda')).total).toBe(0);

    const metrics = await get(token, '/api/v1/dashboard/metrics?platform=metatrader&timeZone=UTC');
    expect(metrics.statusCode, metrics.body).toBe(200);
    const data = metrics.json<{ data: { tradeCount: number; accountCount: number } }>().data;
    expect(data).toMatchObject({ tradeCount: 11, accountCount: 1 });
    const info = await get(token, '/api/v1/account/get_info');
    expect(info.json<{ data: { default_trading_platfrom: string } }>().data.default_trading_platfrom).toBe(
      'MetaTrader',
    );
  });

  it('adds nothing on a second import of the same report', async () => {
    const again = await uploaded(token, MT5);
    const res = await confirm(token, again.importId);
    expect(res.json<ImportConfirmResponse>()).toMatchObject({
      added: 0,
      updated: 0,
      unchanged: 11,
      balanceOperationsAdded: 0,
    });
    expect((await trades(token, 'metatrader')).total).toBe(11);
  });

  it('keeps the journal on an imported trade, and a re-import leaves it alone', async () => {
    const trade = (await trades(token, 'metatrader')).data.find((x) => x.tradeId === '70100011')!;
    const url = `/api/v1/journal/update_trade_note/${encodeURIComponent(trade.accountId)}/${trade.tradeId}`;
    const saved = await t.call(token, {
      method: 'POST',
      url,
      payload: { note: 'Waited for the London open.', rating: 5 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await confirm(token, (await uploaded(token, MT5)).importId);
    const listed = (await trades(token, 'metatrader')).data.find((x) => x.tradeId === '70100011') as TradeItem & {
      note: string;
      rating: number | null;
    };
    expect(listed).toMatchObject({ note: 'Waited for the London open.', rating: 5 });
  });

  it('forgets a confirmed preview', async () => {
    const res = await confirm(token, preview.importId);
    expect(res.statusCode).toBe(404);
  });
});

describe('an MT4 statement at another server offset', () => {
  it('converts server time with the offset given and remembers it for the account', async () => {
    const { token } = await t.user();
    const first = await uploaded(token, MT4, 'Statement.htm', { serverUtcOffset: '+03:00' });
    expect(first.format).toBe('mt4-html');
    expect(first.preview.account.mode).toBeNull();
    expect(first.preview.serverUtcOffset).toBe('+03:00');
    expect(first.preview).toMatchObject({ netProfit: '331.82', reportNetProfit: '331.82', closedTrades: 13 });
    const res = await confirm(token, first.importId, { mode: 'demo' });
    expect(res.statusCode, res.body).toBe(200);
    // 13 closed trades and 2 open ones.
    expect(res.json<ImportConfirmResponse>()).toMatchObject({ added: 15, balanceOperationsAdded: 2 });
    const ops = await get(
      token,
      `/api/v1/account/get_balance_operations/${res.json<ImportConfirmResponse>().accountId}`,
    );
    expect(ops.statusCode, ops.body).toBe(200);
    // Server time 2024.03.01 08:00 at UTC+3; the amounts exact as printed, without the thousands separator.
    expect(ops.json<{ data: unknown[] }>().data).toMatchObject([
      {
        id: '40100480',
        type: 'withdrawal',
        amount: '-500.00',
        comment: 'Withdrawal',
        time: '2024-03-20T15:00:00.000000000Z',
      },
      { id: '40100001', type: 'deposit', amount: '10000.00', currency: 'USD', time: '2024-03-01T05:00:00.000000000Z' },
    ]);

    const stored = (await trades(token, 'metatrader')).data.find((x) => x.tradeId === '40100101')!;
    // Server time 2024.03.01 09:12 at UTC+3.
    expect(stored).toMatchObject({
      openTime: '2024-03-01T06:12:00.000000000Z',
      closeTime: '2024-03-01T12:47:00.000000000Z',
      symbol: 'eurusd.m',
      instrument: 'EUR_USD',
      initialUnits: '50000',
    });

    const second = await uploaded(token, MT4, 'Statement.htm');
    expect(second.preview.serverUtcOffset).toBe('+03:00');
    expect(second.preview.account.mode).toBe('demo');
    const list = await trades(token, 'metatrader');
    expect(list.data.every((x) => x.mode === 'demo')).toBe(true);
  });
});

describe('the broker server clock', () => {
  const HOUR = 3_600_000;
  const byId = (list: TradeItem[]) => new Map(list.map((x) => [x.tradeId, x]));

  it('moves the stored times in place when a corrected rule is imported, keeping notes, tags and ratings', async () => {
    const { token } = await t.user();
    const fixed = await uploaded(token, MT4, 'Statement.htm', { serverUtcOffset: '+02:00' });
    expect(fixed.preview).toMatchObject({ brokerTime: 'fixed', serverUtcOffset: '+02:00' });
    expect((await confirm(token, fixed.importId, { mode: 'demo' })).statusCode).toBe(200);
    // 13 closed trades and the 2 still open at the statement's end.
    const before = (await trades(token, 'metatrader')).data;
    expect(before).toHaveLength(15);

    // A trade of the US summer-time weeks (New York switched on 2024-03-10, Europe on 2024-03-31).
    const summer = before.find((x) => x.openTime > '2024-03-11')!;
    const tag = await t.call(token, {
      method: 'POST',
      url: '/api/v1/journal/create_tag',
      payload: { name: 'Clock check', kind: 'setup' },
    });
    expect(tag.statusCode, tag.body).toBe(200);
    const tagId = tag.json<{ data: { id: string } }>().data.id;
    const note = await t.call(token, {
      method: 'POST',
      url: `/api/v1/journal/update_trade_note/${encodeURIComponent(summer.accountId)}/${summer.tradeId}`,
      payload: { note: 'Read an hour off.', rating: 4, tagIds: [tagId] },
    });
    expect(note.statusCode, note.body).toBe(200);

    const corrected = await uploaded(token, MT4, 'Statement.htm', { brokerTime: 'ny-close-us' });
    expect(corrected.preview).toMatchObject({
      brokerTime: 'ny-close-us',
      serverUtcOffset: null,
      serverUtcOffsets: ['+02:00', '+03:00'],
    });
    const res = await confirm(token, corrected.importId);
    expect(res.statusCode, res.body).toBe(200);
    const counts = res.json<ImportConfirmResponse>();
    expect(counts.added).toBe(0);
    expect(counts.updated).toBeGreaterThan(0);
    expect(counts.updated + counts.unchanged).toBe(15);

    const after = (await trades(token, 'metatrader')).data;
    expect(after).toHaveLength(15);
    const moved = byId(after);
    expect([...moved.keys()].sort()).toEqual(before.map((x) => x.tradeId).sort());
    // Server time 2024-03-10 09:00 is 07:00 UTC, when New York moved its clocks: from then on UTC+3.
    const shift = (utc: string) => (utc >= '2024-03-10T07:00:00' ? HOUR : 0);
    for (const b of before) {
      const a = moved.get(b.tradeId)!;
      expect(Date.parse(b.openTime) - Date.parse(a.openTime), b.tradeId).toBe(shift(b.openTime));
      if (b.closeTime !== null)
        expect(Date.parse(b.closeTime) - Date.parse(a.closeTime!), b.tradeId).toBe(shift(b.closeTime));
    }
    expect(after.filter((x) => x.openTime !== before.find((b) => b.tradeId === x.tradeId)!.openTime).length).toBe(
      before.filter((b) => shift(b.openTime) > 0).length,
    );
    const journal = moved.get(summer.tradeId) as TradeItem & {
      note: string;
      rating: number;
      tags: Array<{ id: string }>;
    };
    expect(journal).toMatchObject({ note: 'Read an hour off.', rating: 4 });
    expect(journal.tags.map((x) => x.id)).toEqual([tagId]);

    // The rule is remembered: the next upload without one reads the same, and changes nothing.
    const again = await uploaded(token, MT4, 'Statement.htm');
    expect(again.preview.brokerTime).toBe('ny-close-us');
    expect((await confirm(token, again.importId)).json<ImportConfirmResponse>()).toMatchObject({
      added: 0,
      updated: 0,
      unchanged: 15,
    });
  });

  it('reads EU summer time with ny-close-eu and remembers it', async () => {
    const { token } = await t.user();
    const eu = await uploaded(token, MT5, 'r.html', { brokerTime: 'ny-close-eu' });
    expect(eu.preview).toMatchObject({ brokerTime: 'ny-close-eu', serverUtcOffset: null });
    // 2024-04-02: Europe on summer time too.
    expect(eu.preview.sample.find((x) => x.tradeId === '70100011')!.openTime).toBe('2024-04-02T06:15:07.000000000Z');
    await confirm(token, eu.importId);
    expect((await uploaded(token, MT5, 'r.html')).preview.brokerTime).toBe('ny-close-eu');
    // An offset alone still means a fixed one.
    const fixed = await uploaded(token, MT5, 'r.html', { serverUtcOffset: '+01:00' });
    expect(fixed.preview).toMatchObject({ brokerTime: 'fixed', serverUtcOffset: '+01:00' });
    expect(fixed.preview.sample.find((x) => x.tradeId === '70100011')!.openTime).toBe('2024-04-02T08:15:07.000000000Z');
  });

  it('takes a fixed rule without an offset at the offset the account remembers', async () => {
    const { token } = await t.user();
    await confirm(token, (await uploaded(token, MT5, 'r.html', { serverUtcOffset: '+04:00' })).importId);
    const again = await uploaded(token, MT5, 'r.html', { brokerTime: 'fixed' });
    expect(again.preview).toMatchObject({ brokerTime: 'fixed', serverUtcOffset: '+04:00' });
  });

  it('refuses an unknown rule, an offset beside a named rule, and a fixed rule without any offset', async () => {
    const { token } = await t.user();
    const unknown = await upload(token, MT5, 'r.html', { brokerTime: 'new-york' });
    await expectError(unknown, 400, 'VALIDATION_FAILED');
    expect(unknown.json<{ message: string }>().message).toBe(
      'brokerTime must be one of ny-close-us, ny-close-eu, fixed',
    );
    const both = await upload(token, MT5, 'r.html', { brokerTime: 'ny-close-us', serverUtcOffset: '+02:00' });
    await expectError(both, 400, 'VALIDATION_FAILED');
    expect(both.json<{ message: string }>().message).toMatch(/^serverUtcOffset goes with brokerTime fixed only/);
    const bare = await upload(token, MT5, 'r.html', { brokerTime: 'fixed' });
    await expectError(bare, 400, 'VALIDATION_FAILED');
    expect(bare.json<{ message: string }>().message).toMatch(/^brokerTime fixed needs serverUtcOffset/);
    // Nothing was kept for the refused uploads: the user can upload at once.
    expect((await uploaded(token, MT5, 'r.html')).preview.brokerTime).toBe('ny-close-us');
  });
});

describe('overlapping reports and the other formats', () => {
  it('adds only the new trades of a longer statement of the same account', async () => {
    const { token } = await t.user();
    const shorter = mt4Statement({ trades: 30, seed: 11 });
    const longer = mt4Statement({ trades: 45, seed: 11 });
    const a = await uploaded(token, Buffer.from(shorter.html), 'Statement.htm');
    expect(a.preview.closedTrades).toBe(shorter.expected.closedTrades);
    expect((await confirm(token, a.importId)).json<ImportConfirmResponse>().added).toBe(
      shorter.expected.closedTrades + shorter.expected.openTrades,
    );
    const b = await uploaded(token, Buffer.from(longer.html), 'Statement.htm');
    expect(b.preview).toMatchObject({
      netProfit: longer.expected.closedTradePL,
      reportNetProfit: longer.expected.closedTradePL,
    });
    const counts = (await confirm(token, b.importId)).json<ImportConfirmResponse>();
    const longerTrades = longer.expected.closedTrades + longer.expected.openTrades;
    const shorterTrades = shorter.expected.closedTrades + shorter.expected.openTrades;
    expect(counts.added + counts.updated + counts.unchanged).toBe(longerTrades);
    expect(counts.added).toBeGreaterThan(0);
    expect((await trades(token, 'metatrader')).total).toBe(
      longerTrades + shorterTrades - counts.updated - counts.unchanged,
    );
  });

  it("keeps a stored trade's id when a later file shows its ticket reused by a netting reversal", async () => {
    const { token } = await t.user();
    const header =
      'ticket,opening_time_utc,closing_time_utc,type,lots,symbol,opening_price,closing_price,commission,swap,profit\n';
    const first = '55501,2024-02-05T07:30:00Z,2024-02-05T12:10:00Z,buy,0.20,EURUSD,1.07610,1.07755,-1.40,0.00,29.00\n';
    const reversed =
      '55501,2024-02-05T12:10:00Z,2024-02-05T15:00:00Z,sell,0.20,EURUSD,1.07755,1.07700,-1.40,0.00,11.00\n';
    const a = await uploaded(token, Buffer.from(header + first), 'positions.csv');
    expect(a.preview.sample.map((s) => s.tradeId)).toEqual(['55501']);
    expect((await confirm(token, a.importId)).json<ImportConfirmResponse>().added).toBe(1);

    const b = await uploaded(token, Buffer.from(header + first + reversed), 'positions.csv');
    expect((await confirm(token, b.importId)).json<ImportConfirmResponse>()).toMatchObject({
      added: 1,
      updated: 0,
      unchanged: 1,
    });
    const stored = await trades(token, 'metatrader');
    expect(stored.data.map((x) => x.tradeId).sort()).toEqual(['55501', '55501@2024-02-05T12:10:00.000000000Z']);
  });

  it('reads an MT5 report written as UTF-16 HTML and as XLSX into the same trades', async () => {
    const { token } = await t.user();
    const html = mt5Report({ positions: 25, seed: 3 });
    const xlsx = mt5Xlsx({ positions: 25, seed: 3 });
    const fromHtml = await uploaded(token, encodeUtf16le(html.html), 'ReportHistory.html');
    const fromXlsx = await uploaded(token, xlsx.bytes, 'ReportHistory.xlsx');
    expect(fromHtml.format).toBe('mt5-html');
    expect(fromXlsx.format).toBe('mt5-xlsx');
    expect(fromXlsx.preview).toEqual(fromHtml.preview);
    expect(fromHtml.preview.netProfit).toBe(html.expected.closedTradePL);
    expect((await confirm(token, fromHtml.importId)).json<ImportConfirmResponse>().added).toBe(25);
    expect((await confirm(token, fromXlsx.importId)).json<ImportConfirmResponse>()).toMatchObject({
      added: 0,
      updated: 0,
      unchanged: 25,
    });
  });
});

describe('cancel and other users', () => {
  it('stores nothing on cancel; another user can neither confirm nor cancel', async () => {
    const a = (await t.user()).token;
    const b = (await t.user()).token;
    const p = await uploaded(a, MT5);
    expect((await confirm(b, p.importId)).statusCode).toBe(404);
    expect((await t.call(b, { method: 'POST', url: `/api/v1/import/cancel/${p.importId}` })).statusCode).toBe(404);
    const cancelled = await t.call(a, { method: 'POST', url: `/api/v1/import/cancel/${p.importId}` });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await confirm(a, p.importId)).statusCode).toBe(404);
    expect((await trades(a, 'metatrader')).total).toBe(0);
    expect((await trades(b, 'metatrader')).total).toBe(0);
  });

  it("keeps one user's imported trades from another", async () => {
    const a = (await t.user()).token;
    const b = (await t.user()).token;
    await confirm(a, (await uploaded(a, MT5)).importId);
    expect((await trades(a, 'metatrader')).total).toBe(11);
    expect((await trades(b, 'metatrader')).total).toBe(0);
    expect((await accounts(b, 'metatrader')).total).toBe(0);
  });

  it('needs a signed-in user', async () => {
    const body = await form({ bytes: MT5, name: 'r.html' });
    const res = await t.call(undefined, { method: 'POST', url: '/api/v1/import/upload', ...body });
    expect(res.statusCode).toBe(401);
  });
});

describe('bad files', () => {
  let token: string;
  beforeAll(async () => {
    token = (await t.user()).token;
  });

  it('refuses an empty file, a page that is not a report and a file cut short', async () => {
    await expectError(await upload(token, new Uint8Array(0)), 400, 'EMPTY_FILE');
    const page = Buffer.from(
      '<html><head><title>My blog</title></head><body><table><tr><td>1</td></tr></table></body></html>',
    );
    await expectError(await upload(token, page), 400, 'UNKNOWN_FORMAT');
    const cut = await expectError(
      await upload(token, MT4.subarray(0, Math.floor(MT4.length / 2))),
      400,
      'TRUNCATED_FILE',
    );
    expect(cut.message).toMatch(/line \d+/i);
  });

  it('asks for the missing columns of a CSV, then reads it with a saved mapping', async () => {
    const csv = Buffer.from(
      'Opened,Closed,Pair,Direction,Size,Entry,Exit,Result\n' +
        '2024.03.01 10:00,2024.03.01 12:30,EURUSD,buy,0.10,1.08000,1.08250,25.00\n' +
        '2024.03.04 09:00,2024.03.04 11:00,GBPUSD,sell,0.20,1.26500,1.26600,-20.00\n',
    );
    const missing = await expectError(await upload(token, csv, 'trades.csv'), 400, 'MISSING_COLUMN');
    const details = (missing as unknown as { details: { columns: string[]; missing: string[] } }).details;
    expect(details.columns).toEqual(['Opened', 'Closed', 'Pair', 'Direction', 'Size', 'Entry', 'Exit', 'Result']);
    expect(details.missing.length).toBeGreaterThan(0);

    const saved = await t.call(token, {
      method: 'POST',
      url: '/api/v1/import/mappings',
      payload: {
        name: 'My journal',
        columns: {
          openTime: 'Opened',
          closeTime: 'Closed',
          symbol: 'Pair',
          side: 'Direction',
          volume: 'Size',
          openPrice: 'Entry',
          closePrice: 'Exit',
          profit: 'Result',
        },
        dateOrder: 'ymd',
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const mappingId = saved.json<{ data: { id: string } }>().data.id;
    const listed = await get(token, '/api/v1/import/mappings');
    expect(listed.json<{ data: Array<{ id: string; name: string }> }>().data).toEqual([
      expect.objectContaining({ id: mappingId, name: 'My journal' }),
    ]);

    const p = await uploaded(token, csv, 'trades.csv', { mappingId, serverUtcOffset: '+00:00' });
    expect(p.format).toBe('csv');
    expect(p.preview).toMatchObject({ closedTrades: 2, netProfit: '5.00' });
    const gbp = p.preview.sample.find((s) => s.symbol === 'GBPUSD')!;
    expect(gbp).toMatchObject({ side: 'sell', units: '-20000', openTime: '2024-03-04T09:00:00.000000000Z' });
    const res = await confirm(token, p.importId);
    expect(res.json<ImportConfirmResponse>().added).toBe(2);

    const other = (await t.user()).token;
    const foreign = await upload(other, csv, 'trades.csv', { mappingId });
    await expectError(foreign, 400, 'UNKNOWN_MAPPING');
  });

  it('refuses a file over 50 MB with 413 and a bad offset with 400', async () => {
    const big = new Uint8Array(IMPORT_MAX_BYTES + 10);
    const res = await expectError(await upload(token, big, 'big.htm'), 413, 'FILE_TOO_LARGE');
    expect(res.message).toContain('50 MB');
    await expectError(await upload(token, MT5, 'r.html', { serverUtcOffset: '2 hours' }), 400, 'VALIDATION_FAILED');
  });

  it('says when no file was sent', async () => {
    const body = await form(null, { serverUtcOffset: '+02:00' });
    const res = await t.call(token, { method: 'POST', url: '/api/v1/import/upload', ...body });
    await expectError(res, 400, 'NO_FILE');
  });

  it('reads one upload of a user at a time', async () => {
    const [a, b] = await Promise.all([upload(token, MT5), upload(token, MT5)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.statusCode === 409)!.json<{ code: string }>().code).toBe('IMPORT_BUSY');
  });

  it('saves one confirmed import of a user at a time; the refused one can be confirmed after', async () => {
    const first = await uploaded(token, MT5);
    const second = await uploaded(token, MT4, 'statement.htm');
    const [a, b] = await Promise.all([confirm(token, first.importId), confirm(token, second.importId)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const refused = a.statusCode === 409 ? first : second;
    expect((a.statusCode === 409 ? a : b).json()).toMatchObject({
      code: 'IMPORT_BUSY',
      message: 'Another of your imports is being saved. Wait for it to finish, then confirm this one.',
    });
    // Nothing of the refused preview was lost.
    const again = await confirm(token, refused.importId);
    expect(again.statusCode, again.body).toBe(200);
  });
});
