import { describe, expect, it } from 'vitest';
import { decodeText } from './text';
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
} from './test-helpers';

/*
 * The English fixture's report as terminals in other languages print it (titles, column headers, labels and, in
 * some, the type words translated), and once with every word replaced by words no terminal prints: each must give the
 * same trades, field by field, read by the report's structure (docs/reference/metatrader.md, Reading a report in any
 * language).
 */

/** Language, the report's own Total Net Profit, the type word of the canceled buy limit order. */
const LANGUAGES: Array<{ lang: string; total: string; buyLimit: string; state: string }> = [
  // The Japanese report's total counts the entry commission of the position still open (−1.40), as a real one did.
  { lang: 'ja', total: '2453.67', buyLimit: '買い指値', state: 'キャンセル済み' },
  { lang: 'zh', total: '2455.07', buyLimit: 'buy limit', state: 'canceled' },
  { lang: 'ru', total: '2455.07', buyLimit: 'buy limit', state: 'canceled' },
  { lang: 'de', total: '2455.07', buyLimit: 'buy limit', state: 'canceled' },
  { lang: 'es', total: '2455.07', buyLimit: 'buy limit', state: 'canceled' },
  { lang: 'fr-echange', total: '2455.07', buyLimit: 'buy limit', state: 'canceled' },
  { lang: 'unknown-words', total: '2455.07', buyLimit: 'upward lim', state: 'canceled' },
];

describe.each(LANGUAGES)('MT5 report in another language: $lang', ({ lang, total, buyLimit, state }) => {
  const bytes = fixture(`mt5-report-${lang}.html`);
  const report = parseReport(bytes);

  it('is UTF-16LE with a BOM, as the terminal writes it', () => {
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xfe]);
    expect(decodeText(bytes).encoding).toBe('utf-16le');
  });

  it('reads the account header by position and shape', () => {
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

  it('reads every field of every closed position', () => {
    expect(report.closedTrades).toHaveLength(MT5_EXPECTED.closedTrades.length);
    MT5_EXPECTED.closedTrades.forEach((e, i) => expectTrade(report.closedTrades[i]!, mt5ClosedTrade(e, 80 + i)));
    expectSameDecimal(netOf(report), '2455.07', 'net');
  });

  it('reads the open position, the balance deals and the orders that are no trades', () => {
    expect(report.openTrades).toHaveLength(1);
    expectTrade(report.openTrades[0]!, mt5OpenTrade(MT5_EXPECTED.openTrades[0]!, 206));
    expect(report.balanceOperations.map((o) => [o.row, o.ticket, o.time, o.amount, o.comment])).toEqual(
      MT5_EXPECTED.balanceOperations.map((b, i) => [[155, 167][i], b.deal, iso(b.time), toPlain(b.amount), b.comment]),
    );
    expect(report.skipped.map((s) => s.row)).toEqual([130, 229]);
    expect(report.skipped[0]!.reason).toBe(`${buyLimit} order 70100430 ${state} — not a trade`);
  });

  it("reads the summary by position and the report's own total where Gross Profit + Gross Loss give it", () => {
    expect(report.totals).toEqual({
      closedTradePL: total,
      deposits: null,
      balance: '10953.67',
      equity: '10991.67',
      floatingPL: '38.00',
      credit: '0.00',
      margin: '85.61',
      freeMargin: '10906.06',
    });
  });

  it("sums the Deals table's trading deals and finds the entry charge of the position still open", () => {
    expect(report.deals).toEqual({
      total: '2453.67',
      openEntries: [{ row: 178, deal: '52100024', position: '70100452', amount: '-1.40' }],
    });
  });

  if (lang !== 'unknown-words')
    it('has nothing to warn about: every word is one the terminal prints', () => {
      expect(report.warnings).toEqual([]);
    });
});

const toPlain = (amount: string) => amount.replace(/\s/g, '');

describe('MT5 report with unknown words everywhere', () => {
  const report = parseReport(fixture('mt5-report-unknown-words.html'));

  it('says which columns it read by position and which type words it told from prices', () => {
    const [positions, buy, sell] = report.warnings;
    expect(positions).toContain('Line 65: in the Positions table, the columns "Qx11" as time');
    expect(positions).toContain('"Qx20" as swap, "Qx21" as profit were not recognised by name');
    expect(buy).toContain('The trade type "upward" is not a word PipSense knows: trades of that type were read as buy');
    expect(sell).toContain('"downward"');
    expect(sell).toContain('read as sell');
    expect(report.warnings.filter((w) => w.includes('table, the column'))).toHaveLength(5);
  });

  it('keeps the non-trading deal type as printed', () => {
    expect(report.balanceOperations.map((o) => o.type)).toEqual(['cash', 'cash']);
  });
});

describe('MT5 report in French with "Echange" (swap) and "Profit Total Net:"', () => {
  const report = parseReport(fixture('mt5-report-fr-echange.html'));

  it('reads the swap of every position', () => {
    expect(report.closedTrades.map((t) => t.swap)).toEqual(MT5_EXPECTED.closedTrades.map((t) => t.swap));
    expect(report.closedTrades[3]!.swap).toBe('3.12');
    expect(report.closedTrades[6]!.swap).toBe('-5.40');
  });

  it("reads the report's total, so that the closed trades can be checked against it", () => {
    expect(report.totals.closedTradePL).toBe('2455.07');
    expect(netOf(report)).toBe('2455.07');
  });
});
