import { describe, expect, it } from 'vitest';
import { encodeUtf16le, mt4Statement } from '../../../test/metatrader-reports';
import { parseReport } from './index';
import { commentAndMagic } from './mt4';
import { expectSameDecimal, expectTrade, fixture, fixtureJson, iso, netOf, reportError } from './test-helpers';

interface Mt4Expected {
  account: { number: string; name: string; currency: string; leverage: string | null; company: string };
  closedTrades: Array<{
    ticket: string;
    symbol: string;
    side: 'buy' | 'sell';
    lots: string;
    openTime: string;
    closeTime: string;
    openPrice: string;
    closePrice: string;
    sl: string | null;
    tp: string | null;
    commission: string;
    taxes: string;
    swap: string;
    profit: string;
    comment: string | null;
    magic: number | null;
  }>;
  openTrades: Array<{
    ticket: string;
    symbol: string;
    side: 'buy' | 'sell';
    lots: string;
    openTime: string;
    openPrice: string;
    sl: string | null;
    tp: string | null;
    marketPrice: string;
    commission: string;
    swap: string;
    profit: string;
  }>;
  balanceOperations: Array<{ ticket: string; type: string; time: string; amount: string; comment: string }>;
  skipped: Array<{ ticket: string; type: string; reason: string }>;
  totals: Record<string, string | number>;
}

const encode = (text: string) => new TextEncoder().encode(text);

describe('MT4 statement: the shared fixture (windows-1252, 2011 layout, newest first)', () => {
  const report = parseReport(fixture('mt4-statement.htm'));
  const expected = fixtureJson<Mt4Expected>('mt4-statement.expected.json');

  it('reads the account header and the broker above the table', () => {
    expect(report.format).toBe('mt4-html');
    expect(report.account).toEqual({
      number: expected.account.number,
      name: 'José Müller',
      currency: 'USD',
      leverage: null,
      broker: expected.account.company,
      server: null,
      mode: null,
      marginMode: null,
    });
  });

  it('finds every closed trade with every field, in file order (newest first)', () => {
    expect(report.closedTrades).toHaveLength(expected.closedTrades.length);
    const byTicket = new Map(report.closedTrades.map((t) => [t.ticket, t]));
    for (const e of expected.closedTrades) {
      expectTrade(byTicket.get(e.ticket)!, {
        ...e,
        openTime: iso(e.openTime),
        closeTime: iso(e.closeTime),
        magic: e.magic === null ? null : String(e.magic),
      });
    }
    expect(report.closedTrades.map((t) => t.ticket).slice(0, 3)).toEqual(['40100603', '40100558', '40100512']);
    // 1-based lines of the rows in the file.
    expect(report.closedTrades[0]!.row).toBe(41);
    expect(report.closedTrades.at(-1)!.row).toBe(58);
  });

  it('reads open trades (market price as close price, no close time)', () => {
    expect(report.openTrades).toHaveLength(2);
    expected.openTrades.forEach((e, i) => {
      expectTrade(report.openTrades[i]!, {
        ...e,
        openTime: iso(e.openTime),
        closeTime: null,
        closePrice: e.marketPrice,
        taxes: '0',
        comment: null,
        magic: null,
      });
    });
  });

  it('lists balance rows as balance operations, the cancelled order and the working order as skipped', () => {
    const ops = [...report.balanceOperations].sort((a, b) => a.time.localeCompare(b.time));
    expect(ops.map((o) => ({ ...o, amount: Number(o.amount) }))).toEqual(
      expected.balanceOperations.map((e, i) => ({
        row: [59, 45][i],
        ticket: e.ticket,
        time: iso(e.time),
        type: e.type,
        amount: Number(e.amount),
        comment: e.comment,
      })),
    );
    expect(report.skipped).toEqual([
      { row: 48, reason: 'buy limit order 40100399 cancelled — not a trade' },
      { row: 98, reason: 'sell stop order 40100671 is still pending (Working Orders) — not a trade' },
    ]);
  });

  it("matches the report's own totals", () => {
    expectSameDecimal(netOf(report), expected.totals.reportClosedPL as string, 'net');
    expectSameDecimal(report.totals.closedTradePL, expected.totals.reportClosedPL as string);
    expectSameDecimal(report.totals.deposits, expected.totals.depositWithdrawal as string);
    expectSameDecimal(report.totals.balance, expected.totals.balance as string);
    expectSameDecimal(report.totals.equity, expected.totals.equity as string);
    expectSameDecimal(report.totals.floatingPL, expected.totals.floatingPL as string);
    expectSameDecimal(report.totals.credit, '0');
    expectSameDecimal(report.totals.margin, '538.91');
    expectSameDecimal(report.totals.freeMargin, '9405.91');
  });
});

describe('MT4 statement: JPY account, partial closes, seconds, newest first, UTF-8', () => {
  const report = parseReport(fixture('mt4-jpy-partial.htm'));

  it('reads the header (placeholder leverage → null, UTF-8 name)', () => {
    expect(report.account).toEqual({
      number: '3300871',
      name: 'Jürgen Ōta',
      currency: 'JPY',
      leverage: null,
      broker: 'Sakura Securities Co.',
      server: null,
      mode: null,
      marginMode: null,
    });
  });

  it('reads every trade: money without decimals, both parts of the partial close, magic without comment', () => {
    const common = { taxes: '0', comment: null, magic: null } as const;
    const expected = [
      {
        ...common,
        row: 31,
        ticket: '61002210',
        symbol: 'eurjpy_',
        side: 'sell' as const,
        lots: '1.00',
        openTime: '2019-06-12T10:15:32',
        closeTime: '2019-06-12T16:40:05',
        openPrice: '121.870',
        closePrice: '121.650',
        sl: null,
        tp: null,
        commission: '-500',
        swap: '0',
        profit: '22000',
      },
      {
        ...common,
        row: 32,
        ticket: '61002150',
        symbol: 'usdjpy',
        side: 'buy' as const,
        lots: '0.40',
        openTime: '2019-06-10T09:00:11',
        closeTime: '2019-06-11T14:22:48',
        openPrice: '108.450',
        closePrice: '108.620',
        sl: '108.200',
        tp: '108.900',
        commission: '-200',
        swap: '-36',
        profit: '6800',
        comment: 'from #61002101',
      },
      {
        ...common,
        row: 33,
        ticket: '61002101',
        symbol: 'usdjpy',
        side: 'buy' as const,
        lots: '0.60',
        openTime: '2019-06-10T09:00:11',
        closeTime: '2019-06-10T15:30:00',
        openPrice: '108.450',
        closePrice: '108.310',
        sl: '108.200',
        tp: '108.900',
        commission: '-300',
        swap: '0',
        profit: '-8400',
        comment: 'to #61002150',
      },
      {
        ...common,
        row: 34,
        ticket: '61002088',
        symbol: 'xauusd.',
        side: 'buy' as const,
        lots: '0.10',
        openTime: '2019-06-07T03:12:45',
        closeTime: '2019-06-07T18:05:09',
        openPrice: '1334.52',
        closePrice: '1341.20',
        sl: '1320.00',
        tp: null,
        commission: '-150',
        swap: '-23',
        profit: '7214',
        magic: '10001',
      },
      {
        ...common,
        row: 37,
        ticket: '61002011',
        symbol: 'eurjpy_',
        side: 'buy' as const,
        lots: '2.00',
        openTime: '2019-06-05T11:20:00',
        closeTime: '2019-06-05T22:41:37',
        openPrice: '122.310',
        closePrice: '122.257',
        sl: null,
        tp: null,
        commission: '-1000',
        swap: '0',
        profit: '-10600',
      },
    ];
    expect(report.closedTrades).toHaveLength(expected.length);
    expected.forEach((e, i) => expectTrade(report.closedTrades[i]!, e));
    expect(report.closedTrades.map((t) => t.profit)).toEqual(['22000', '6800', '-8400', '7214', '-10600']);
  });

  it('reads the deposit (NBSP thousands), the deleted order, no open trades, and the totals', () => {
    expect(report.balanceOperations).toEqual([
      {
        row: 38,
        ticket: '61001999',
        time: '2019-06-03T08:00:00',
        type: 'balance',
        amount: '10000000',
        comment: 'Deposit',
      },
    ]);
    expect(report.skipped).toEqual([{ row: 36, reason: 'sell stop order 61002050 deleted [no money] — not a trade' }]);
    expect(report.openTrades).toEqual([]);
    expect(netOf(report)).toBe('14805');
    expect(report.totals).toEqual({
      closedTradePL: '14805',
      deposits: '10000000',
      balance: '10014805',
      equity: '10014805',
      floatingPL: '0',
      credit: '0',
      margin: '0',
      freeMargin: '10014805',
    });
  });
});

describe('MT4 statement: generated reports', () => {
  it.each([
    { trades: 40, seed: 2 },
    { trades: 25, seed: 9, currency: 'JPY' as const, seconds: false, newestFirst: true, leverage: null },
  ])('%o: counts and totals match the Summary', (options) => {
    const { html, expected } = mt4Statement(options);
    const report = parseReport(encode(html));
    expect(report.closedTrades).toHaveLength(expected.closedTrades);
    expect(report.openTrades).toHaveLength(expected.openTrades);
    expect(report.balanceOperations).toHaveLength(expected.balanceOperations);
    expect(report.skipped).toHaveLength(expected.skipped);
    expect(netOf(report)).toBe(expected.closedTradePL);
    expect(report.totals.closedTradePL).toBe(expected.closedTradePL);
    expect(report.totals.deposits).toBe(expected.deposits);
    expect(report.totals.balance).toBe(expected.balance);
    const first = report.closedTrades[0]!;
    expect({ ticket: first.ticket, symbol: first.symbol, side: first.side, lots: first.lots }).toEqual({
      ticket: expected.first.ticket,
      symbol: expected.first.symbol,
      side: expected.first.side,
      lots: expected.first.lots,
    });
    expect(first.openTime).toBe(expected.first.openTime);
    expect(first.profit).toBe(expected.first.profit);
    expect(report.account.leverage).toBe(options.leverage === null ? null : '1:100');
    const parts = report.closedTrades.filter((t) => t.comment?.startsWith('to #') || t.comment?.startsWith('from #'));
    expect(parts).toHaveLength(2);
    expect(parts[0]!.openTime).toBe(parts[1]!.openTime);
  });

  it('reads the same statement saved as UTF-16', () => {
    const { html, expected } = mt4Statement({ trades: 10, seed: 4 });
    expect(netOf(parseReport(encodeUtf16le(html)))).toBe(expected.closedTradePL);
  });
});

describe('MT4 statement: variants', () => {
  const good = new TextDecoder('windows-1252').decode(fixture('mt4-statement.htm'));

  it('reads a credit row as a balance operation of type credit', () => {
    const text = good.replace(
      '<td>balance</td><td colspan=10 align=left>Withdrawal</td>',
      '<td>credit</td><td colspan=10 align=left>Credit in</td>',
    );
    const report = parseReport(encode(text));
    expect(report.balanceOperations[0]).toEqual({
      row: 45,
      ticket: '40100480',
      time: '2024-03-20T18:00:00',
      type: 'credit',
      amount: '-500.00',
      comment: 'Credit in',
    });
  });

  it('reads a Detailed Statement (Details section after the Summary ignored)', () => {
    const details =
      '<tr align=left><td colspan=14><b>Details:</b></td></tr>\n' +
      '<tr><td colspan=14 align=center><img src="DetailedStatement.gif" width=820 height=200 border=0 alt="Graph"></td></tr>\n' +
      '<tr align=right><td>Gross Profit:</td><td class=mspt>2 468.04</td><td colspan=4>Gross Loss:</td><td class=mspt>2 136.22</td><td colspan=4>Total Net Profit:</td><td colspan=3 class=mspt>331.82</td></tr>\n' +
      '<tr align=right><td>Total Trades:</td><td>13</td><td colspan=4>Short Positions (won %):</td><td>5 (40.00%)</td></tr>\n';
    const report = parseReport(encode(good.replace('</table>', `${details}</table>`)));
    expect(report.closedTrades).toHaveLength(13);
    expect(report.skipped).toHaveLength(2);
    expect(report.totals.closedTradePL).toBe('331.82');
    expect(report.totals.balance).toBe('9831.82');
  });

  it('reads the unreplaced leverage placeholder as unknown and a real one as 1:N', () => {
    const withLeverage = (value: string) =>
      good.replace(
        '<td colspan=2><b>Currency: USD</b></td>',
        `<td colspan=2><b>Currency: USD</b></td><td colspan=2><b>Leverage: ${value}</b></td>`,
      );
    expect(parseReport(encode(withLeverage('1:200'))).account.leverage).toBe('1:200');
    expect(parseReport(encode(withLeverage('<!--LEVERAGE-->'))).account.leverage).toBeNull();
    expect(parseReport(encode(withLeverage('&lt;!--LEVERAGE--&gt;'))).account.leverage).toBeNull();
  });
});

describe('MT4 statement: bad input', () => {
  const good = new TextDecoder('windows-1252').decode(fixture('mt4-statement.htm'));

  it('refuses a file cut in the middle of Closed Transactions, naming the line', () => {
    const e = reportError(() => parseReport(fixture('mt4-truncated.htm')));
    expect(e.code).toBe('TRUNCATED_FILE');
    expect(e.message).toContain('line 52');
    expect(e.message).toContain('Closed Transactions');
  });

  it('refuses a file cut before its Summary', () => {
    const cut = good.slice(0, good.indexOf('<tr align=left><td colspan=14><b>Summary:'));
    const e = reportError(() => parseReport(encode(cut)));
    expect(e.code).toBe('TRUNCATED_FILE');
    expect(e.message).toMatch(/stops at line \d+ inside "Working Orders"/);
  });

  it('names the line and the value of a bad price', () => {
    const bad = good.replace('>1.08125<', '>1.08x25<');
    const e = reportError(() => parseReport(encode(bad)));
    expect(e).toMatchObject({ code: 'BAD_ROW' });
    expect(e.message).toBe(
      'Line 58: the open price "1.08x25" is not a number. Correct that row or export the report again.',
    );
  });

  it('names the line of a bad time', () => {
    const bad = good.replace('2024.03.01 15:47', '2024.13.01 15:47');
    const e = reportError(() => parseReport(encode(bad)));
    expect(e.code).toBe('BAD_ROW');
    expect(e.message).toContain('Line 58: the close time "2024.13.01 15:47"');
  });

  it('refuses a statement without Closed Transactions', () => {
    const html =
      '<html><head><title>Statement: 1 - A</title></head><body><table><tr><td>x</td></tr></table></body></html>';
    const e = reportError(() => parseReport(encode(html)));
    expect(e.code).toBe('UNSUPPORTED_REPORT');
    expect(e.message).toContain('"Closed Transactions:"');
  });
});

describe('commentAndMagic', () => {
  it.each([
    ['#7001 GoldScalper v2', { comment: 'GoldScalper v2', magic: '7001' }],
    ['#21000 ', { comment: null, magic: '21000' }],
    ['#135797531 [sl]', { comment: '[sl]', magic: '135797531' }],
    ['to #40100302', { comment: 'to #40100302', magic: null }],
    ['[tp]', { comment: '[tp]', magic: null }],
    ['#abc', { comment: '#abc', magic: null }],
    ['', { comment: null, magic: null }],
  ])('%s', (title, expected) => {
    expect(commentAndMagic(title)).toEqual(expected);
  });
});

describe('MT4 statement in Japanese (titles, headers, labels and type words translated): read by structure', () => {
  const report = parseReport(fixture('mt4-statement-ja.htm'));
  const expected = fixtureJson<Mt4Expected>('mt4-statement.expected.json');

  it('reads every field of every closed and open trade, sides told from prices', () => {
    expect(report.format).toBe('mt4-html');
    expect(report.account).toMatchObject({ number: '2091337', name: 'José Müller', currency: 'USD' });
    expect(report.closedTrades).toHaveLength(expected.closedTrades.length);
    const byTicket = new Map(report.closedTrades.map((t) => [t.ticket, t]));
    for (const e of expected.closedTrades)
      expectTrade(byTicket.get(e.ticket)!, {
        ...e,
        openTime: iso(e.openTime),
        closeTime: iso(e.closeTime),
        magic: e.magic === null ? null : String(e.magic),
      });
    expected.openTrades.forEach((e, i) =>
      expectTrade(report.openTrades[i]!, {
        ...e,
        openTime: iso(e.openTime),
        closeTime: null,
        closePrice: e.marketPrice,
        taxes: '0',
        comment: null,
        magic: null,
      }),
    );
  });

  it('reads balance rows by shape, skips the order rows, and reads the Summary by position', () => {
    expect(report.balanceOperations.map((o) => [o.row, o.amount, o.comment])).toEqual([
      [45, '-500.00', 'Withdrawal'],
      [59, '10000.00', 'Deposit'],
    ]);
    expect(report.skipped.map((s) => s.row)).toEqual([48, 98]);
    expect(report.totals).toEqual({
      closedTradePL: '331.82',
      deposits: '9500.00',
      balance: '9831.82',
      equity: '9944.82',
      floatingPL: '113.00',
      credit: '0.00',
      margin: '538.91',
      freeMargin: '9405.91',
    });
    expect(netOf(report)).toBe('331.82');
  });

  it('says what it assumed', () => {
    expect(report.warnings).toContain(
      'Line 36: the section title "決済済み取引:" is not one PipSense knows; it was read as "Closed Transactions" from its place in the statement.',
    );
    expect(report.warnings.filter((w) => w.startsWith('The trade type'))).toHaveLength(2);
  });
});
