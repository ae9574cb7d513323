import { describe, expect, it } from 'vitest';
import { sniffDelimiter } from './csv';
import { parseReport } from './index';
import { expectTrade, fixture, netOf, reportError } from './test-helpers';
import type { CsvMappingSpec } from './types';

const encode = (text: string) => new TextEncoder().encode(text);
const noExtras = { comment: null, magic: null } as const;

describe('CSV: Myfxbook statement (MM/dd/yyyy proved by a day above 12, Deposit row, no ticket column)', () => {
  const report = parseReport(fixture('myfxbook.csv'));

  it('reads every trade, row tickets, the deposit, and says the times are not UTC', () => {
    expect(report.format).toBe('csv');
    expect(report.timesAreUtc).toBe(false);
    const expected = [
      {
        ...noExtras,
        row: 3,
        ticket: 'row-3',
        symbol: 'EURUSD',
        side: 'buy' as const,
        lots: '0.50',
        openTime: '2024-03-04T09:12:00',
        closeTime: '2024-03-04T15:47:00',
        openPrice: '1.08125',
        closePrice: '1.08391',
        sl: '1.07800',
        tp: '1.08600',
        commission: '-3.50',
        taxes: '0',
        swap: '0.00',
        profit: '133.00',
      },
      {
        ...noExtras,
        row: 4,
        ticket: 'row-4',
        symbol: 'GBPUSD',
        side: 'sell' as const,
        lots: '1.00',
        openTime: '2024-03-14T10:05:00',
        closeTime: '2024-03-15T08:31:00',
        openPrice: '1.26850',
        closePrice: '1.27150',
        sl: '1.27150',
        tp: null,
        commission: '-7.00',
        taxes: '0',
        swap: '-1.20',
        profit: '-300.00',
      },
      {
        ...noExtras,
        row: 5,
        ticket: 'row-5',
        symbol: 'XAUUSD',
        side: 'buy' as const,
        lots: '0.10',
        openTime: '2024-03-20T09:30:00',
        closeTime: '2024-03-21T08:12:00',
        openPrice: '2155.20',
        closePrice: '2184.65',
        sl: null,
        tp: null,
        commission: '-0.70',
        taxes: '0',
        swap: '-1.85',
        profit: '294.50',
      },
    ];
    expect(report.closedTrades).toHaveLength(3);
    expected.forEach((e, i) => expectTrade(report.closedTrades[i]!, e));
    expect(report.balanceOperations).toEqual([
      { row: 2, ticket: null, time: '2024-03-01T08:00:00', type: 'balance', amount: '5000.00', comment: 'Deposit' },
    ]);
    expect(report.skipped).toEqual([]);
    expect(netOf(report)).toBe('113.25');
  });
});

describe('CSV: broker back-office export (snake_case, times in UTC)', () => {
  it('maps the columns by their names and says the times are UTC', () => {
    const report = parseReport(fixture('broker-snake.csv'));
    expect(report.timesAreUtc).toBe(true);
    expect(report.closedTrades).toHaveLength(2);
    expectTrade(report.closedTrades[0]!, {
      ...noExtras,
      row: 2,
      ticket: '88100231',
      symbol: 'EURUSD',
      side: 'buy',
      lots: '0.20',
      openTime: '2024-02-05T07:30:00',
      closeTime: '2024-02-05T12:10:45',
      openPrice: '1.07610',
      closePrice: '1.07755',
      sl: null,
      tp: null,
      commission: '-1.40',
      taxes: '0',
      swap: '0.00',
      profit: '29.00',
    });
    expectTrade(report.closedTrades[1]!, {
      ...noExtras,
      row: 3,
      ticket: '88100240',
      symbol: 'USDJPY',
      side: 'sell',
      lots: '1.50',
      openTime: '2024-02-06T13:00:10',
      closeTime: '2024-02-07T09:15:00',
      openPrice: '148.250',
      closePrice: '148.610',
      sl: '148.900',
      tp: '147.500',
      commission: '-10.50',
      taxes: '0',
      swap: '4.35',
      profit: '-363.41',
    });
  });
});

describe('CSV: MT5 Positions re-saved by an Italian spreadsheet (title line, ;, decimal comma, space thousands)', () => {
  it('reads the duplicate Ora/Prezzo columns by position and every value', () => {
    const report = parseReport(fixture('mt5-positions-it.csv'));
    expect(report.closedTrades).toHaveLength(3);
    const base = { ...noExtras, taxes: '0' };
    expectTrade(report.closedTrades[0]!, {
      ...base,
      row: 3,
      ticket: '70100011',
      symbol: 'EURUSD',
      side: 'buy',
      lots: '0.5',
      openTime: '2024-04-02T09:15:07',
      closeTime: '2024-04-02T14:02:31',
      openPrice: '1.07845',
      closePrice: '1.08156',
      sl: '1.07500',
      tp: '1.08400',
      commission: '-3.50',
      swap: '0.00',
      profit: '155.50',
    });
    expectTrade(report.closedTrades[1]!, {
      ...base,
      row: 4,
      ticket: '70100058',
      symbol: 'US500',
      side: 'sell',
      lots: '2',
      openTime: '2024-04-03T10:22:45',
      closeTime: '2024-04-03T16:48:03',
      openPrice: '5204.30',
      closePrice: '4974.57',
      sl: null,
      tp: null,
      commission: '-14.00',
      swap: '-1.20',
      profit: '4577.86',
    });
    expectTrade(report.closedTrades[2]!, {
      ...base,
      row: 5,
      ticket: '70100102',
      symbol: 'GBPUSD',
      side: 'sell',
      lots: '1',
      openTime: '2024-04-04T08:03:19',
      closeTime: '2024-04-04T13:27:40',
      openPrice: '1.26420',
      closePrice: '1.26700',
      sl: '1.26700',
      tp: null,
      commission: '-7.00',
      swap: '0.00',
      profit: '-280.00',
    });
    expect(netOf(report)).toBe('4427.66');
  });
});

const MAPPING: CsvMappingSpec = {
  columns: {
    openTime: 'Opened',
    closeTime: 'Closed',
    symbol: 'Instrument',
    side: 'Direction',
    volume: 'Qty',
    openPrice: 'Entry',
    closePrice: 'Exit',
    profit: 'Net',
    fees: 'Fees',
  },
  dateOrder: 'dmy',
  decimalSeparator: ',',
  timesAreUtc: true,
};
const CUSTOM =
  'Opened\tClosed\tInstrument\tDirection\tQty\tEntry\tExit\tNet\tFees\n03/04/2024 10:00\t03/04/2024 11:30\tEURUSD\tLong\t0,5\t1,0850\t1,0870\t10,00\t-0,50\n';

describe('CSV with a column mapping', () => {
  it('uses the mapping: tab delimiter, day first, decimal comma, fees, UTC', () => {
    const report = parseReport(encode(CUSTOM), { csvMapping: MAPPING });
    expect(report.timesAreUtc).toBe(true);
    expect(report.closedTrades).toHaveLength(1);
    expectTrade(report.closedTrades[0]!, {
      ...noExtras,
      row: 2,
      ticket: 'row-2',
      symbol: 'EURUSD',
      side: 'buy',
      lots: '0.5',
      openTime: '2024-04-03T10:00:00',
      closeTime: '2024-04-03T11:30:00',
      openPrice: '1.0850',
      closePrice: '1.0870',
      sl: null,
      tp: null,
      commission: '0',
      taxes: '-0.50',
      swap: '0',
      profit: '10.00',
    });
  });

  it('reads the same dates month first when the mapping says so', () => {
    const report = parseReport(encode(CUSTOM), { csvMapping: { ...MAPPING, dateOrder: 'mdy' } });
    expect(report.closedTrades[0]!.openTime).toBe('2024-03-04T10:00:00');
  });

  it('without a mapping, unknown headers (Instrument, Direction, Qty are known) are MISSING_COLUMN with the file columns and the missing fields', () => {
    const e = reportError(() => parseReport(encode(CUSTOM)));
    expect(e.code).toBe('MISSING_COLUMN');
    expect(e.message).toBe(
      "The columns for Open time, Close time, Open price, Close price, Profit / P&L were not recognised. Map the file's columns to the trade fields.",
    );
    expect(e.details).toEqual({
      columns: ['Opened', 'Closed', 'Instrument', 'Direction', 'Qty', 'Entry', 'Exit', 'Net', 'Fees'],
      missing: ['openTime', 'closeTime', 'openPrice', 'closePrice', 'profit'],
    });
  });

  it('a mapping naming a column the file does not have is MISSING_COLUMN naming the field', () => {
    const e = reportError(() =>
      parseReport(encode(CUSTOM), { csvMapping: { ...MAPPING, columns: { ...MAPPING.columns, profit: 'P&L' } } }),
    );
    expect(e.code).toBe('MISSING_COLUMN');
    expect(e.message).toContain('for: Profit / P&L.');
    expect(e.details).toMatchObject({ missing: ['profit'] });
  });
});

describe('CSV: bad input', () => {
  const header = 'Ticket,Open Time,Close Time,Symbol,Type,Lots,Open Price,Close Price,Profit\n';

  it('refuses dates whose order no row proves, unless the mapping says', () => {
    const e = reportError(() =>
      parseReport(encode(`${header}1,03/04/2024 10:00,05/04/2024 11:00,EURUSD,buy,1,1.1,1.2,10\n`)),
    );
    expect(e.code).toBe('MISSING_COLUMN');
    expect(e.message).toBe(
      'Row 2: the date "03/04/2024 10:00" could be day/month or month/day, and no date in the file settles it. Choose the date order (day/month or month/day) in the column mapping.',
    );
    expect(e.details).toMatchObject({ missing: [] });
  });

  it('refuses dates written in both orders', () => {
    const text = `${header}1,13/04/2024 10:00,13/04/2024 11:00,EURUSD,buy,1,1.1,1.2,10\n2,04/14/2024 10:00,04/14/2024 11:00,EURUSD,buy,1,1.1,1.2,10\n`;
    const e = reportError(() => parseReport(encode(text)));
    expect(e.code).toBe('BAD_ROW');
    expect(e.message).toContain('Row 2 writes the day first and row 3 the month first');
  });

  it('names the row, the field and the value of a bad number', () => {
    const text = `${header}1,2024.03.01 10:00,2024.03.01 11:00,EURUSD,buy,1,1.1,1.2,10\n2,2024.03.02 10:00,2024.03.02 11:00,EURUSD,sell,1,abc,1.2,10\n`;
    const e = reportError(() => parseReport(encode(text)));
    expect(e).toEqual({
      code: 'BAD_ROW',
      message: 'Row 3: the open price "abc" is not a number. Correct that row or export the report again.',
      details: undefined,
    });
  });

  it('names the row of a bad date', () => {
    const e = reportError(() => parseReport(encode(`${header}1,yesterday,2024.03.01 11:00,EURUSD,buy,1,1.1,1.2,10\n`)));
    expect(e.code).toBe('BAD_ROW');
    expect(e.message).toContain('Row 2: the open time "yesterday" is not a date and time');
  });

  it('skips rows that are neither trades nor balance operations, with the reason; an empty close is an open trade', () => {
    const text = `${header}1,2024.03.01 10:00,2024.03.01 11:00,EURUSD,buy limit,1,1.1,1.2,0\n2,2024.03.01 10:00,,EURUSD,sell,1,1.1,1.09,5\n`;
    const report = parseReport(encode(text));
    expect(report.skipped).toEqual([{ row: 2, reason: 'type "buy limit" — not a trade' }]);
    expect(report.closedTrades).toEqual([]);
    expect(report.openTrades).toHaveLength(1);
    expect(report.openTrades[0]).toMatchObject({ ticket: '2', closeTime: null, closePrice: '1.09', profit: '5' });
  });
});

describe('sniffDelimiter', () => {
  it.each([
    ['a;b;c\n1,5;2,5;3\n', ';'],
    ['a,b,c\n1.5,2.5,3\n', ','],
    ['a\tb\tc\n1,5\t2\t3\n', '\t'],
    ['Title\na;b;c\n1;2;3\n4;5;6\n', ';'],
  ])('%j → %j', (text, delimiter) => {
    expect(sniffDelimiter(text)).toBe(delimiter);
  });
});
