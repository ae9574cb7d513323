import { describe, expect, it } from 'vitest';
import { encodeUtf16le, mt5Report, mt5Xlsx } from '../../../test/metatrader-reports';
import { parseReport } from './index';
import {
  expectSameDecimal,
  expectTrade,
  fixture,
  iso,
  MT5_EXPECTED,
  mt5ClosedTrade,
  mt5OpenTrade,
  netOf,
  reportError,
} from './test-helpers';
import { expandExponent } from './xlsx';

describe('MT5 report: the shared fixture (UTF-16LE, hedging, hidden cells)', () => {
  const report = parseReport(fixture('mt5-report.html'));

  it('reads the account line by meaning', () => {
    expect(report.format).toBe('mt5-html');
    expect(report.account).toEqual({
      number: '51234567',
      name: 'Jane Q. Trader',
      currency: 'USD',
      leverage: null,
      broker: 'Northwind Capital Markets Ltd',
      server: 'Northwind-Live3',
      mode: 'live',
      marginMode: 'hedge',
    });
  });

  it('finds one closed trade per Positions row, every field, hidden cells dropped (comment kept)', () => {
    expect(report.closedTrades).toHaveLength(MT5_EXPECTED.closedTrades.length);
    MT5_EXPECTED.closedTrades.forEach((e, i) => expectTrade(report.closedTrades[i]!, mt5ClosedTrade(e)));
    expect(report.closedTrades[0]!.row).toBe(80);
  });

  it('reads the open position with its market price', () => {
    expect(report.openTrades).toHaveLength(1);
    expectTrade(report.openTrades[0]!, mt5OpenTrade(MT5_EXPECTED.openTrades[0]!));
  });

  it('lists balance deals as balance operations and the canceled/working orders as skipped', () => {
    expect(report.balanceOperations.map((o) => ({ ...o, amount: Number(o.amount) }))).toEqual(
      MT5_EXPECTED.balanceOperations.map((e, i) => ({
        row: [155, 167][i],
        ticket: e.deal,
        time: iso(e.time),
        type: e.type,
        amount: Number(e.amount),
        comment: e.comment,
      })),
    );
    expect(report.skipped).toEqual([
      { row: 130, reason: 'buy limit order 70100430 canceled — not a trade' },
      { row: 229, reason: 'sell limit order 70100470 is still pending (Working Orders) — not a trade' },
    ]);
  });

  it("matches the report's Total Net Profit and summary", () => {
    expectSameDecimal(netOf(report), MT5_EXPECTED.totals.reportTotalNetProfit as string, 'net');
    expectSameDecimal(report.totals.closedTradePL, MT5_EXPECTED.totals.reportTotalNetProfit as string);
    expectSameDecimal(report.totals.balance, MT5_EXPECTED.totals.balance as string);
    expectSameDecimal(report.totals.equity, MT5_EXPECTED.totals.equity as string);
    expectSameDecimal(report.totals.floatingPL, MT5_EXPECTED.totals.floatingPL as string);
    expect(report.totals).toMatchObject({ credit: '0.00', margin: '85.61', freeMargin: '10906.06', deposits: null });
  });
});

describe('MT5 report: netting account with a reversal (double BOM, 2019 leverage slot, Broker label)', () => {
  const report = parseReport(fixture('mt5-netting-reversal.html'));

  it('reads leverage, server with a space, demo and Netting', () => {
    expect(report.account).toEqual({
      number: '70995511',
      name: 'Ana Ribeiro',
      currency: 'EUR',
      leverage: '1:500',
      broker: 'Alpha Markets SA',
      server: 'Alpha-Server 2',
      mode: 'demo',
      marginMode: 'netting',
    });
  });

  it('keeps both rows of the reversed position (same id, different open time)', () => {
    const base = { taxes: '0', magic: null, comment: null } as const;
    const expected = [
      {
        ...base,
        row: 40,
        ticket: '9100501',
        symbol: 'EURUSD',
        side: 'buy' as const,
        lots: '1',
        openTime: '2024-05-06T10:00:00',
        closeTime: '2024-05-06T15:00:00',
        openPrice: '1.07500',
        closePrice: '1.07700',
        sl: null,
        tp: null,
        commission: '-7.00',
        swap: '0.00',
        profit: '200.00',
        comment: 'rev test',
      },
      {
        ...base,
        row: 41,
        ticket: '9100501',
        symbol: 'EURUSD',
        side: 'sell' as const,
        lots: '0.5',
        openTime: '2024-05-06T15:00:00',
        closeTime: '2024-05-07T09:30:00',
        openPrice: '1.07700',
        closePrice: '1.07600',
        sl: '1.08000',
        tp: '1.07500',
        commission: '-1.75',
        swap: '-0.60',
        profit: '50.00',
      },
      {
        ...base,
        row: 42,
        ticket: '9100620',
        symbol: 'XAUUSD',
        side: 'buy' as const,
        lots: '0.2',
        openTime: '2024-05-07T11:00:00',
        closeTime: '2024-05-07T20:10:10',
        openPrice: '2301.50',
        closePrice: '2309.75',
        sl: '2290.00',
        tp: null,
        commission: '-1.40',
        swap: '0.00',
        profit: '165.00',
      },
    ];
    expect(report.closedTrades).toHaveLength(3);
    expected.forEach((e, i) => expectTrade(report.closedTrades[i]!, e));
  });

  it('reads balance and credit deals, the expired order and the totals', () => {
    expect(report.balanceOperations).toEqual([
      {
        row: 61,
        ticket: '3300001',
        time: '2024-05-06T08:00:00',
        type: 'balance',
        amount: '5000.00',
        comment: 'Deposit',
      },
      {
        row: 62,
        ticket: '3300002',
        time: '2024-05-06T08:05:00',
        type: 'credit',
        amount: '500.00',
        comment: 'Credit bonus',
      },
    ]);
    expect(report.skipped).toEqual([{ row: 52, reason: 'buy limit order 9100600 expired — not a trade' }]);
    expect(report.openTrades).toEqual([]);
    expect(netOf(report)).toBe('404.25');
    expect(report.totals).toEqual({
      closedTradePL: '404.25',
      deposits: null,
      balance: '5404.25',
      equity: '5904.25',
      floatingPL: '0.00',
      credit: '500.00',
      margin: '0.00',
      freeMargin: '5904.25',
    });
  });
});

describe('MT5 report in French', () => {
  const report = parseReport(fixture('mt5-report-fr.html'));

  it('reads the French header, sections, columns and totals', () => {
    expect(report.format).toBe('mt5-html');
    expect(report.account).toEqual({
      number: '81112222',
      name: 'Jean Dupont',
      currency: 'EUR',
      leverage: null,
      broker: 'Lumière Courtage SAS',
      server: 'Lumière-Real',
      mode: 'live',
      marginMode: 'hedge',
    });
    expectTrade(report.closedTrades[0]!, {
      row: 24,
      ticket: '4400101',
      symbol: 'EURGBP',
      side: 'sell',
      lots: '0.3',
      openTime: '2024-05-27T09:10:00',
      closeTime: '2024-05-27T11:45:30',
      openPrice: '0.85210',
      closePrice: '0.85120',
      sl: '0.85400',
      tp: null,
      commission: '-2.10',
      taxes: '0',
      swap: '0.00',
      profit: '31.70',
      comment: 'scalp',
      magic: null,
    });
    expectTrade(report.closedTrades[1]!, {
      row: 25,
      ticket: '4400150',
      symbol: 'GER40',
      side: 'buy',
      lots: '1',
      openTime: '2024-05-28T14:00:00',
      closeTime: '2024-05-29T10:05:00',
      openPrice: '18650.5',
      closePrice: '18612.0',
      sl: null,
      tp: '18700.0',
      commission: '0.00',
      taxes: '0',
      swap: '-1.25',
      profit: '-38.50',
      comment: null,
      magic: null,
    });
    expect(report.closedTrades).toHaveLength(2);
    expect(report.balanceOperations).toEqual([
      { row: 35, ticket: '6600001', time: '2024-05-27T08:00:00', type: 'balance', amount: '2000.00', comment: 'Dépôt' },
    ]);
    expect(report.skipped).toEqual([{ row: 30, reason: 'sell limit order 4400190 canceled — not a trade' }]);
    expect(netOf(report)).toBe('-10.15');
    expect(report.totals).toMatchObject({ closedTradePL: '-10.15', balance: '1989.85', equity: '1989.85' });
  });
});

const ITALIAN: Array<[string, string]> = [
  ['<b>Positions</b>', '<b>Posizioni</b>'],
  ['<b>Orders</b>', '<b>Ordini</b>'],
  ['<b>Deals</b>', '<b>Operazioni</b>'],
  ['<b>Results</b>', '<b>Risultati</b>'],
  ['<b>Time</b>', '<b>Ora</b>'],
  ['<b>Open Time</b>', '<b>Ora di apertura</b>'],
  ['<b>Position</b>', '<b>Posizione</b>'],
  ['<b>Symbol</b>', '<b>Simbolo</b>'],
  ['<b>Type</b>', '<b>Tipo</b>'],
  ['<b>Price</b>', '<b>Prezzo</b>'],
  ['<b>Commission</b>', '<b>Commissioni</b>'],
  ['<b>Profit</b>', '<b>Profitto</b>'],
  ['<b>Order</b>', '<b>Ordine</b>'],
  ['<b>State</b>', '<b>Stato</b>'],
  ['<b>Comment</b>', '<b>Commento</b>'],
  ['<b>Deal</b>', '<b>Operazione</b>'],
  ['<b>Direction</b>', '<b>Direzione</b>'],
  ['<b>Balance</b>', '<b>Saldo</b>'],
  ['Name:', 'Nome:'],
  ['Account:', 'Conto:'],
  ['Company:', 'Società:'],
  ['Balance:', 'Saldo:'],
  ['Equity:', 'Patrimonio netto:'],
  ['Total Net Profit:', 'Profitto netto totale:'],
  ['- Trade History Report', '- Rapporto storico di trading'],
  ['<b>Trade History Report</b>', '<b>Rapporto storico di trading</b>'],
];

describe('MT5 report: other languages and layouts (generated)', () => {
  const { html, expected } = mt5Report({ positions: 30, seed: 8 });

  it('reads the generated English report: counts and totals', () => {
    const report = parseReport(encodeUtf16le(html));
    expect(report.closedTrades).toHaveLength(expected.closedTrades);
    expect(report.balanceOperations).toHaveLength(expected.balanceOperations);
    expect(netOf(report)).toBe(expected.closedTradePL);
    expect(report.totals.closedTradePL).toBe(expected.closedTradePL);
    expect(report.totals.balance).toBe(expected.balance);
    expect(report.closedTrades[0]).toMatchObject({
      ticket: expected.first.ticket,
      symbol: expected.first.symbol,
      side: expected.first.side,
      lots: expected.first.lots,
      openTime: expected.first.openTime,
      profit: expected.first.profit,
    });
  });

  it('reads Italian section titles, column headers and labels', () => {
    let italian = html;
    for (const [en, it] of ITALIAN) italian = italian.split(en).join(it);
    const report = parseReport(encodeUtf16le(italian));
    expect(report.account).toMatchObject({
      number: '88001234',
      name: 'Synthetic Trader',
      broker: 'Synthetic Markets Ltd',
    });
    expect(report.closedTrades).toHaveLength(expected.closedTrades);
    expect(netOf(report)).toBe(expected.closedTradePL);
    expect(report.totals).toMatchObject({ closedTradePL: expected.closedTradePL, balance: expected.balance });
    expect(report.balanceOperations).toHaveLength(1);
  });

  it('falls back to the canonical column order for Positions headers in a language it does not know', () => {
    const start = html.indexOf('<tr align="center" bgcolor="#E5F0FC">');
    const end = html.indexOf('</tr>', start);
    const polish = [
      'Czas',
      'Pozycja',
      'Symbol',
      'Typ',
      'Wolumen',
      'Cena',
      'S / L',
      'T / P',
      'Czas',
      'Cena',
      'Prowizja',
      'Swap',
    ]
      .map((h) => `<td nowrap><b>${h}</b></td>`)
      .join('');
    const changed = `${html.slice(0, start)}<tr align="center" bgcolor="#E5F0FC">${polish}<td nowrap colspan="2"><b>Zysk</b></td>${html.slice(end)}`;
    const report = parseReport(encodeUtf16le(changed));
    expect(report.closedTrades).toHaveLength(expected.closedTrades);
    expect(netOf(report)).toBe(expected.closedTradePL);
    expect(report.warnings[0]).toMatch(
      /^Line \d+: in the Positions table, the columns "Czas" as time, "Pozycja" as position,/,
    );
    expect(report.warnings[0]).toContain('"Zysk" as profit were not recognised by name');
  });

  it('reads a report whose section titles it does not know, by the order and width of its tables', () => {
    const japanese = html
      .split('<b>Positions</b>')
      .join('<b>ポジション一覧</b>')
      .split('<b>Orders</b>')
      .join('<b>注文一覧</b>')
      .split('<b>Deals</b>')
      .join('<b>約定一覧</b>')
      .split('<b>Results</b>')
      .join('<b>結果一覧</b>');
    const report = parseReport(encodeUtf16le(japanese));
    expect(report.closedTrades).toHaveLength(expected.closedTrades);
    expect(netOf(report)).toBe(expected.closedTradePL);
    expect(report.totals.closedTradePL).toBe(expected.closedTradePL);
    expect(report.warnings).toEqual([]);
  });

  it('refuses a report with no table at all, saying what it looked for', () => {
    const e = reportError(() =>
      parseReport(
        encodeUtf16le(
          '<html><head><title>1: A - Trade History Report</title></head><body><table><tr><td><b>ポジション</b></td></tr></table></body></html>',
        ),
      ),
    );
    expect(e.code).toBe('UNSUPPORTED_REPORT');
    expect(e.message).toContain('No "Positions" section was found');
    expect(e.message).toContain('found no section at all');
  });

  it('refuses the old layout without Positions (Orders and Deals only)', () => {
    const start = html.indexOf(
      '<tr align="center"><th colspan="14" style="height: 25px"><div style="font: 10pt Tahoma"><b>Positions',
    );
    const end = html.indexOf(
      '<tr align="center"><th colspan="14" style="height: 25px"><div style="font: 10pt Tahoma"><b>Orders',
    );
    const old = html.slice(0, start) + html.slice(end);
    const e = reportError(() => parseReport(encodeUtf16le(old)));
    expect(e.code).toBe('UNSUPPORTED_REPORT');
    expect(e.message).toContain('no "Positions" section');
    expect(e.message).toContain('only Orders and Deals');
  });

  it('refuses a report cut in the middle, naming the line', () => {
    const cut = html.slice(0, Math.floor(html.length / 2));
    const lines = cut.split('\n').length;
    const e = reportError(() => parseReport(encodeUtf16le(cut)));
    expect(e.code).toBe('TRUNCATED_FILE');
    expect(e.message).toContain(`stops at line ${lines}`);
  });

  it('names the line and the value of a bad volume', () => {
    const text = new TextDecoder('utf-16le').decode(fixture('mt5-report.html'));
    const bad = text.replace('<td class="">0.5</td>', '<td class="">half</td>');
    const e = reportError(() => parseReport(encodeUtf16le(bad)));
    expect(e.code).toBe('BAD_ROW');
    expect(e.message).toBe('Line 80: the volume "half" is not a number. Correct that row or export the report again.');
  });
});

describe('MT5 XLSX report', () => {
  it('reads the committed fixture (UTF-16 XML parts, shared strings, merges, formulas) field by field', () => {
    const report = parseReport(fixture('mt5-report.xlsx'));
    expect(report.format).toBe('mt5-xlsx');
    expect(report.account).toEqual({
      number: '51009900',
      name: 'Xavier Lund',
      currency: 'USD',
      leverage: null,
      broker: 'Fjord Markets AS',
      server: 'Synthetic-Live',
      mode: 'demo',
      marginMode: 'hedge',
    });
    const base = { taxes: '0', comment: null, magic: null, swap: '0' } as const;
    const expected = [
      {
        ...base,
        row: 8,
        ticket: '80000000',
        symbol: 'XAUUSD',
        side: 'sell' as const,
        lots: '1.22',
        openTime: '2020-01-06T01:54:13',
        closeTime: '2020-01-06T10:25:43',
        openPrice: '2151.52',
        closePrice: '2149.00',
        sl: null,
        tp: null,
        commission: '-8.54',
        profit: '30.74',
      },
      {
        ...base,
        row: 9,
        ticket: '80000003',
        symbol: 'USDJPY',
        side: 'sell' as const,
        lots: '0.84',
        openTime: '2020-01-06T02:55:39',
        closeTime: '2020-01-06T09:45:37',
        openPrice: '148.643',
        closePrice: '148.45',
        sl: '149.043',
        tp: '148.143',
        commission: '-5.88',
        profit: '16.21',
      },
      {
        ...base,
        row: 10,
        ticket: '80000006',
        symbol: 'XAUUSD',
        side: 'buy' as const,
        lots: '1.2',
        openTime: '2020-01-06T03:48:39',
        closeTime: '2020-01-06T08:00:45',
        openPrice: '2163.77',
        closePrice: '2165.6',
        sl: null,
        tp: null,
        commission: '-8.40',
        profit: '21.96',
      },
    ];
    expect(report.closedTrades).toHaveLength(3);
    expected.forEach((e, i) => expectTrade(report.closedTrades[i]!, e));
    expect(report.balanceOperations).toEqual([
      {
        row: 13,
        ticket: '90000001',
        time: '2020-01-06T00:54:13',
        type: 'balance',
        amount: '50000.00',
        comment: 'Deposit',
      },
    ]);
    expect(netOf(report)).toBe('46.09');
    expectSameDecimal(report.totals.closedTradePL, '46.09');
    expectSameDecimal(report.totals.balance, '50046.09');
  });

  it('reads a generated workbook: counts and totals', () => {
    const { bytes, expected } = mt5Xlsx({ positions: 200, seed: 3 });
    const report = parseReport(bytes);
    expect(report.closedTrades).toHaveLength(expected.closedTrades);
    expect(netOf(report)).toBe(expected.closedTradePL);
    expectSameDecimal(report.totals.closedTradePL, expected.closedTradePL);
    expect(report.closedTrades[0]).toMatchObject({
      ticket: expected.first.ticket,
      symbol: expected.first.symbol,
      lots: expected.first.lots,
      openTime: expected.first.openTime,
    });
  });

  it('refuses a cut or damaged workbook', () => {
    const { bytes } = mt5Xlsx({ positions: 5, seed: 3 });
    const e = reportError(() => parseReport(bytes.slice(0, Math.floor(bytes.length * 0.6))));
    expect(e.code).toBe('TRUNCATED_FILE');
    expect(e.message).toContain('could not be opened');
  });

  it('expands numbers written with an exponent', () => {
    expect(expandExponent('1.5E+3')).toBe('1500');
    expect(expandExponent('-2.5E-4')).toBe('-0.00025');
    expect(expandExponent('1E-3')).toBe('0.001');
    expect(expandExponent('12.34')).toBe('12.34');
  });
});
