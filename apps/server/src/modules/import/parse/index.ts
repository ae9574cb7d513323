import type { ImportFormat } from '@pipsense/contract';
import { parseCsv } from './csv';
import { readHtmlRows } from './html-rows';
import { parseMt4 } from './mt4';
import { Mt5Reader } from './mt5';
import { decodeText } from './text';
import { ReportError, type CsvMappingSpec, type ParsedReport } from './types';
import { readXlsxRows, unzipWorkbook } from './xlsx';

/*
 * The report parsers' one entry: the format is told from the content (docs/reference/metatrader.md, Telling the format
 * from the content), never from the file name. Pure and synchronous (the import service runs it in a worker thread);
 * every refusal is a ReportError.
 */

export type * from './types';

type Detected =
  | { format: 'mt5-xlsx'; parts: Record<string, Uint8Array> }
  | { format: Exclude<ImportFormat, 'mt5-xlsx'>; text: string };

const startsWith = (bytes: Uint8Array, ...prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

function titleOf(head: string): string {
  const start = head.indexOf('<title>');
  if (start === -1) return '';
  const end = head.indexOf('</title>', start);
  return head
    .slice(start + 7, end === -1 ? start + 400 : end)
    .replace(/\s+/g, ' ')
    .trim();
}

function detect(bytes: Uint8Array): Detected {
  if (bytes.length === 0)
    throw new ReportError('EMPTY_FILE', 'The file is empty (0 bytes). Choose the report file itself.');
  if (startsWith(bytes, 0x50, 0x4b, 0x03, 0x04)) {
    const parts = unzipWorkbook(bytes);
    if (!parts['xl/workbook.xml'])
      throw new ReportError(
        'UNKNOWN_FORMAT',
        'The file is a zip archive but not an Excel workbook (.xlsx). Upload the MetaTrader report itself (HTML, XLSX) or a CSV file.',
      );
    return { format: 'mt5-xlsx', parts };
  }
  if (startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0))
    throw new ReportError(
      'UNKNOWN_FORMAT',
      'This is an old Excel .xls file. Save it as .xlsx or CSV, or upload the report the terminal saved (HTML or XLSX).',
    );
  if (startsWith(bytes, 0x25, 0x50, 0x44, 0x46))
    throw new ReportError(
      'UNKNOWN_FORMAT',
      'This is a PDF file. Upload the report the terminal saves (MT4 Statement.htm, MT5 ReportHistory .html or .xlsx) or a CSV file.',
    );
  const { text } = decodeText(bytes);
  if (text.trim() === '')
    throw new ReportError('EMPTY_FILE', 'The file holds only white space. Choose the report file itself.');
  const head = text.slice(0, 65536).toLowerCase();
  if (head.includes('\u0000'))
    throw new ReportError(
      'UNKNOWN_FORMAT',
      'The file is not text (binary data). Upload an MT4/MT5 report (HTML, XLSX) or a CSV file.',
    );
  const isHtml = /^\s*</.test(head) || head.includes('<html') || head.includes('<table');
  if (!isHtml) return { format: 'csv', text };
  const title = titleOf(head);
  if (title.includes('strategy tester') || head.slice(0, 8192).includes('strategy tester report'))
    throw new ReportError(
      'UNSUPPORTED_REPORT',
      'This is a Strategy Tester report (a backtest), not an account history. Save the account history instead: MT4 Terminal → Account History → Save as Report; MT5 Toolbox → History → Report.',
    );
  if (
    title.startsWith('statement:') ||
    head.includes('closed transactions:') ||
    // A translated statement: the MT4 grey header rows, never in an MT5 report.
    (head.includes('bgcolor="#c0c0c0"') && !head.includes('#e5f0fc'))
  )
    return { format: 'mt4-html', text };
  if (
    title.endsWith('trade history report') ||
    head.includes('#e5f0fc') ||
    /<b>(positions|deals|orders|posizioni|operazioni|ordini|ordres|transactions)<\/b>/.test(head) ||
    (head.includes('class="hidden"') && (head.includes('>deal<') || head.includes('>direction<')))
  )
    return { format: 'mt5-html', text };
  throw new ReportError(
    'UNKNOWN_FORMAT',
    `This HTML page is not a MetaTrader report${title ? ` (its title is "${titleOf(text.slice(0, 65536))}")` : ''}: it has neither the MT4 "Statement:" title nor a "Closed Transactions:" section, nor the MT5 "Trade History Report" sections. Upload the file the terminal saved from the account history.`,
  );
}

/** The file's format, from its content; throws a ReportError for an empty, unknown or unsupported file. */
export function detectFormat(bytes: Uint8Array): ImportFormat {
  return detect(bytes).format;
}

export function parseReport(bytes: Uint8Array, options: { csvMapping?: CsvMappingSpec } = {}): ParsedReport {
  const detected = detect(bytes);
  switch (detected.format) {
    case 'mt4-html':
      return parseMt4(detected.text);
    case 'mt5-html': {
      const reader = new Mt5Reader('mt5-html', 'Line');
      const doc = readHtmlRows(detected.text, reader.row);
      if (!doc.tableClosed)
        throw new ReportError(
          'TRUNCATED_FILE',
          `The report stops at line ${doc.lines}, inside its table: the file was cut off. Save the report from the terminal again and upload the whole file.`,
        );
      return reader.finish();
    }
    case 'mt5-xlsx': {
      const reader = new Mt5Reader('mt5-xlsx', 'Row');
      for (const row of readXlsxRows(detected.parts)) reader.row(row);
      return reader.finish();
    }
    case 'csv':
      return parseCsv(detected.text, options.csvMapping);
  }
}
