import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { encodeUtf16le, mt4Statement } from '../../../test/metatrader-reports';
import { detectFormat, parseReport } from './index';
import { decodeText, mtTime, toDecimal } from './text';
import { fixture, reportError } from './test-helpers';

const encode = (text: string) => new TextEncoder().encode(text);

describe('detectFormat: by content, never by name', () => {
  it.each([
    ['mt4-statement.htm', 'mt4-html'],
    ['mt4-jpy-partial.htm', 'mt4-html'],
    ['mt5-report.html', 'mt5-html'],
    ['mt5-netting-reversal.html', 'mt5-html'],
    ['mt5-report-fr.html', 'mt5-html'],
    ['mt5-report.xlsx', 'mt5-xlsx'],
    ['myfxbook.csv', 'csv'],
    ['mt5-positions-it.csv', 'csv'],
  ])('%s → %s', (name, format) => {
    expect(detectFormat(fixture(name))).toBe(format);
  });

  it('refuses an empty file and one of white space only', () => {
    expect(reportError(() => parseReport(new Uint8Array()))).toMatchObject({ code: 'EMPTY_FILE' });
    expect(reportError(() => parseReport(encode(' \r\n\t \n')))).toMatchObject({ code: 'EMPTY_FILE' });
    expect(reportError(() => parseReport(encodeUtf16le('   ')))).toMatchObject({ code: 'EMPTY_FILE' });
  });

  it('refuses Strategy Tester reports (MT4 and MT5)', () => {
    const e = reportError(() => parseReport(fixture('mt4-strategy-tester.htm')));
    expect(e.code).toBe('UNSUPPORTED_REPORT');
    expect(e.message).toContain('Strategy Tester report');
    const mt5 =
      '<html><head><title>Strategy Tester Report</title></head><body><table><tr><td>x</td></tr></table></body></html>';
    expect(reportError(() => parseReport(encodeUtf16le(mt5))).code).toBe('UNSUPPORTED_REPORT');
  });

  it('refuses other HTML, naming its title', () => {
    const e = reportError(() => parseReport(fixture('not-a-report.html')));
    expect(e.code).toBe('UNKNOWN_FORMAT');
    expect(e.message).toContain('(its title is "My trading journal – March")');
  });

  it('refuses a zip that is not a workbook, an old .xls, a PDF and binary data', () => {
    const zip = zipSync({ 'readme.txt': encode('hello') });
    expect(reportError(() => parseReport(zip)).message).toContain('not an Excel workbook');
    expect(reportError(() => parseReport(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 1, 2]))).message).toContain('.xls');
    expect(reportError(() => parseReport(encode('%PDF-1.7 …'))).message).toContain('PDF');
    expect(reportError(() => parseReport(new Uint8Array([1, 0, 0, 0, 5, 0, 0, 9]))).code).toBe('UNKNOWN_FORMAT');
  });

  it('refuses a workbook that is not an MT5 report', () => {
    const workbook = zipSync({
      'xl/workbook.xml': encode('<workbook/>'),
      'xl/worksheets/sheet1.xml': encode(
        '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Hello</t></is></c></row></sheetData></worksheet>',
      ),
    });
    const e = reportError(() => parseReport(workbook));
    expect(e.code).toBe('UNSUPPORTED_REPORT');
    expect(e.message).toContain('found no section at all');
  });

  it('reads a statement in any of the encodings a file may arrive in', () => {
    const { html, expected } = mt4Statement({ trades: 5, seed: 6, name: 'Zoë Ørsted' });
    const variants: Uint8Array[] = [
      encode(html),
      new Uint8Array([0xef, 0xbb, 0xbf, ...encode(html)]),
      encodeUtf16le(html),
      encodeUtf16le(html).slice(2), // UTF-16LE without a mark
      new Uint8Array([...encodeUtf16le(`\uFEFF${html}`)]), // double mark
    ];
    for (const bytes of variants) {
      const report = parseReport(bytes);
      expect(report.account.name).toBe('Zoë Ørsted');
      expect(report.totals.closedTradePL).toBe(expected.closedTradePL);
    }
  });
});

describe('decodeText', () => {
  it('falls back to windows-1252 when the bytes are not UTF-8', () => {
    expect(decodeText(new Uint8Array([0x4a, 0x6f, 0x73, 0xe9, 0x80]))).toEqual({
      text: 'José€',
      encoding: 'windows-1252',
    });
  });
  it('reads UTF-16BE by its mark', () => {
    expect(decodeText(new Uint8Array([0xfe, 0xff, 0, 0x41, 0, 0x42]))).toEqual({ text: 'AB', encoding: 'utf-16be' });
  });
});

describe('toDecimal', () => {
  it.each([
    ['10 000.00', false, '10000.00'],
    ['-1 140.03', false, '-1140.03'],
    ['10\u00a0000\u00a0000', false, '10000000'],
    ['-1 736', false, '-1736'],
    [' 595,65', true, '595.65'],
    ['4 577,86', true, '4577.86'],
    ['4.577,86', true, '4577.86'],
    ['1,234.50', false, '1234.50'],
    ['+12.5', false, '12.5'],
    ['.5', false, '0.5'],
    ['abc', false, null],
    ['', false, null],
    ['1.2.3', false, null],
    ['12%', false, null],
  ])('%j (comma %s) → %j', (text, comma, expected) => {
    expect(toDecimal(text, comma)).toBe(expected);
  });
});

describe('mtTime', () => {
  it.each([
    ['2024.03.01 09:12', '2024-03-01T09:12:00'],
    ['2024.03.01 09:12:05', '2024-03-01T09:12:05'],
    ['2024-03-01T09:12:05', '2024-03-01T09:12:05'],
    ['2024.02.30 09:12', null],
    ['2024.03.01 24:00', null],
    ['2024 March 28, 23:41', null],
    ['01/03/2024 09:12', null],
  ])('%j → %j', (text, expected) => {
    expect(mtTime(text)).toBe(expected);
  });
});
