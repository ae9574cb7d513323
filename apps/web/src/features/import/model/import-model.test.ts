import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVER_UTC_OFFSET, IMPORT_MAX_BYTES, UTC_OFFSET_PATTERN } from '@pipsense/contract';
import { fileProblem, formatBytes, looksLikeCsv } from './import-file';
import { guessColumns } from './mapping';
import { changedContractSizes, contractSizeProblem, netProfitCheck } from './preview';
import { offsetLabel, UTC_OFFSETS } from './utc-offsets';

describe('the import model', () => {
  it('formats sizes in binary units and refuses files over the limit or empty, by name', () => {
    expect(formatBytes(812)).toBe('812 bytes');
    expect(formatBytes(14_540)).toBe('14.2 KB');
    expect(formatBytes(IMPORT_MAX_BYTES)).toBe('50 MB');
    expect(formatBytes(66_270_823)).toBe('63.2 MB');
    expect(fileProblem({ name: 'a.htm', size: IMPORT_MAX_BYTES })).toBeNull();
    expect(fileProblem({ name: 'a.htm', size: IMPORT_MAX_BYTES + 1 })).toMatch(
      /^a\.htm is 50 MB; the limit is 50 MB\./,
    );
    expect(fileProblem({ name: 'b.csv', size: 0 })).toBe(
      'b.csv is empty (0 bytes). Choose the report file the terminal saved.',
    );
    expect(looksLikeCsv({ name: 'X.TXT', type: '' })).toBe(true);
    expect(looksLikeCsv({ name: 'report', type: 'text/csv' })).toBe(true);
    expect(looksLikeCsv({ name: 'report.htm', type: 'text/html' })).toBe(false);
  });

  it('offers the real zones’ offsets from −12:00 to +14:00, in order, the default among them', () => {
    expect(UTC_OFFSETS[0]).toBe('-12:00');
    expect(UTC_OFFSETS.at(-1)).toBe('+14:00');
    expect(UTC_OFFSETS).toEqual(
      expect.arrayContaining(['+05:30', '+05:45', '-03:30', '+12:45', DEFAULT_SERVER_UTC_OFFSET]),
    );
    for (const offset of UTC_OFFSETS) expect(offset).toMatch(UTC_OFFSET_PATTERN);
    const minutes = UTC_OFFSETS.map(
      (o) => (o.startsWith('-') ? -1 : 1) * (Number(o.slice(1, 3)) * 60 + Number(o.slice(4))),
    );
    expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
    expect(new Set(minutes).size).toBe(minutes.length);
    expect(offsetLabel('-05:00')).toBe('UTC−05:00');
    expect(offsetLabel('+02:00')).toBe('UTC+02:00');
  });

  it('compares the net P/L with the report exactly', () => {
    expect(netProfitCheck({ netProfit: '0.30', reportNetProfit: '0.3' })).toEqual({ kind: 'matches' });
    expect(netProfitCheck({ netProfit: '-10.01', reportNetProfit: '-10.02' })).toEqual({
      kind: 'differs',
      difference: '0.01',
    });
    expect(netProfitCheck({ netProfit: '5', reportNetProfit: null })).toEqual({ kind: 'no-total' });
  });

  it('sends only the contract sizes that changed, and refuses sizes that are not above 0', () => {
    const sizes = [
      { symbol: 'EURUSD', instrument: 'EUR_USD', contractSize: '100000', known: true },
      { symbol: 'XAUUSD', instrument: 'XAU_USD', contractSize: '100', known: true },
      { symbol: 'GER40', instrument: 'GER40', contractSize: '1', known: false },
    ];
    expect(changedContractSizes(sizes, { EURUSD: '100000.0', XAUUSD: ' 10 ', GER40: 'abc' })).toEqual({ XAUUSD: '10' });
    expect(contractSizeProblem('25')).toBeNull();
    expect(contractSizeProblem('0.5')).toBeNull();
    expect(contractSizeProblem('0')).toBe('A contract size must be above 0.');
    expect(contractSizeProblem('1e5')).toBe('Enter a number such as 100000.');
  });

  it('guesses common headers, each header used once', () => {
    expect(
      guessColumns([
        'Position',
        'Time',
        'Symbol',
        'Type',
        'Volume',
        'Price',
        'S / L',
        'T / P',
        'Commission',
        'Swap',
        'Profit',
      ]),
    ).toEqual({
      ticket: 'Position',
      symbol: 'Symbol',
      side: 'Type',
      volume: 'Volume',
      stopLoss: 'S / L',
      takeProfit: 'T / P',
      profit: 'Profit',
      commission: 'Commission',
      swap: 'Swap',
    });
  });
});
