import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sumDecimals } from '../domain/decimal';
import { encodeUtf16le, formatMoney, mt4Statement, mt5Report, mt5Xlsx, plainMoney } from './metatrader-reports';

describe('synthetic MetaTrader reports', () => {
  it('are deterministic for a seed and differ between seeds', () => {
    expect(mt4Statement({ trades: 20, seed: 5 }).html).toBe(mt4Statement({ trades: 20, seed: 5 }).html);
    expect(mt4Statement({ trades: 20, seed: 5 }).html).not.toBe(mt4Statement({ trades: 20, seed: 6 }).html);
    expect(mt5Report({ positions: 20, seed: 5 }).html).toBe(mt5Report({ positions: 20, seed: 5 }).html);
    expect(mt5Xlsx({ positions: 5, seed: 5 }).bytes).toEqual(mt5Xlsx({ positions: 5, seed: 5 }).bytes);
  });

  it('MT4: the Summary is consistent (Closed Trade P/L = Σ parts, Balance = deposits + P/L)', () => {
    const { html, expected } = mt4Statement({ trades: 30, seed: 2 });
    expect(sumDecimals([expected.commission, expected.swap, expected.profit])).toBe(expected.closedTradePL);
    expect(sumDecimals([expected.deposits, expected.closedTradePL])).toBe(expected.balance);
    expect(html).toContain('<title>Statement: 7700123 - Synthetic Trader</title>');
    expect(html).toContain(
      `<b>Closed Trade P/L:</b></td><td colspan=2 class=mspt><b>${formatMoney(Number(expected.closedTradePL.replace('.', '')))}</b>`,
    );
    expect(html).toContain('<td colspan=4>cancelled</td>');
    expect(html.match(/title="(to|from) #/g)).toHaveLength(2);
  });

  it('MT4 JPY: money without decimals', () => {
    const { html, expected } = mt4Statement({ trades: 10, seed: 2, currency: 'JPY', leverage: null });
    expect(expected.closedTradePL).not.toContain('.');
    expect(html).toContain('<b>Leverage: <!--LEVERAGE--></b>');
    expect(html).toContain('<b>Currency: JPY</b>');
  });

  it('MT5: hidden comment cells, a hidden Cost column, Total Net Profit = Σ parts', () => {
    const { html, expected } = mt5Report({ positions: 10, seed: 2 });
    expect(html).toContain('<td class="hidden" colspan="8">');
    expect(html).toContain('<td nowrap class="hidden"><b>Cost</b></td>');
    expect(html).toContain(
      `Total Net Profit:</td><td nowrap><b>${formatMoney(Number(expected.closedTradePL.replace('.', '')))}</b>`,
    );
    expect(sumDecimals([expected.commission, expected.swap, expected.profit])).toBe(expected.closedTradePL);
  });

  it('XLSX: every XML part is UTF-16LE with a byte-order mark and no encoding attribute', () => {
    const parts = unzipSync(mt5Xlsx({ positions: 3, seed: 1 }).bytes);
    expect(Object.keys(parts).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/sharedStrings.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    for (const part of Object.values(parts)) {
      expect([part[0], part[1]]).toEqual([0xff, 0xfe]);
      expect(new TextDecoder('utf-16le').decode(part.slice(2)).startsWith('<?xml version="1.0"?>')).toBe(true);
    }
  });

  it('formats money like the terminals', () => {
    expect(formatMoney(-114003)).toBe('-1 140.03');
    expect(formatMoney(1000000000)).toBe('10 000 000.00');
    expect(formatMoney(-1736, 0)).toBe('-1 736');
    expect(plainMoney(-5)).toBe('-0.05');
    expect([...encodeUtf16le('A€')]).toEqual([0xff, 0xfe, 0x41, 0, 0xac, 0x20]);
  });
});
