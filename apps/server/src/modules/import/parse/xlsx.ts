import { unzipSync } from 'fflate';
import { Parser } from 'htmlparser2';
import type { Cell, Row } from './html-rows';
import { cleanText, decodeText } from './text';
import { ReportError } from './types';

/*
 * An MT5 XLSX report's first worksheet as rows of cells (the shape html-rows.ts gives the HTML; see
 * docs/reference/metatrader.md, MT5 XLSX reports): every XML part is decoded by its byte-order mark (the terminal
 * writes UTF-16LE parts without an encoding attribute), shared strings and inline strings resolved, numbers kept as
 * written (exponents expanded), cached formula values read (never evaluated), and horizontal merges turned into
 * colspans (cells under a merge dropped).
 */

export function unzipWorkbook(bytes: Uint8Array): Record<string, Uint8Array> {
  try {
    return unzipSync(bytes);
  } catch (error) {
    throw new ReportError(
      'TRUNCATED_FILE',
      `The file is a zip archive (XLSX) that could not be opened (${(error as Error).message}): it is probably cut off or damaged. Save the report from the terminal again and upload the whole file.`,
    );
  }
}

function xmlPart(parts: Record<string, Uint8Array>, name: string): string | null {
  const part = parts[name];
  return part ? decodeText(part).text : null;
}

function parseXml(text: string, handlers: ConstructorParameters<typeof Parser>[0]): void {
  const parser = new Parser(handlers, { xmlMode: true, decodeEntities: true });
  parser.write(text);
  parser.end();
}

function sharedStrings(xml: string | null): string[] {
  if (!xml) return [];
  const out: string[] = [];
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  parseXml(xml, {
    onopentag(name) {
      const local = name.slice(name.indexOf(':') + 1);
      if (local === 'si') current = '';
      else if (local === 'rPh') phonetic++;
      else if (local === 't' && phonetic === 0) inText = true;
    },
    ontext(data) {
      if (inText && current !== null) current += data;
    },
    onclosetag(name) {
      const local = name.slice(name.indexOf(':') + 1);
      if (local === 'si') {
        out.push(current ?? '');
        current = null;
      } else if (local === 'rPh') phonetic--;
      else if (local === 't') inText = false;
    },
  });
  return out;
}

/** 'AB12' → column index 27 (0-based) and row 12. */
function cellRef(ref: string): { col: number; row: number } {
  let col = 0;
  let i = 0;
  while (i < ref.length) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
    i++;
  }
  return { col: col - 1, row: Number(ref.slice(i)) };
}

/** '1.5E-3' → '0.0015'; other numbers as written. */
export function expandExponent(value: string): string {
  const e = value.search(/[eE]/);
  if (e === -1) return value;
  const exponent = Number(value.slice(e + 1));
  let mantissa = value.slice(0, e);
  const negative = mantissa.startsWith('-');
  if (negative) mantissa = mantissa.slice(1);
  const dot = mantissa.indexOf('.');
  const digits = dot === -1 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  let point = (dot === -1 ? mantissa.length : dot) + exponent;
  let padded = digits;
  if (point <= 0) {
    padded = '0'.repeat(1 - point) + padded;
    point = 1;
  } else if (point > padded.length) padded = padded + '0'.repeat(point - padded.length);
  const whole = padded.slice(0, point).replace(/^0+(?=\d)/, '');
  const fraction = padded.slice(point);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export function readXlsxRows(parts: Record<string, Uint8Array>): Row[] {
  const sheetName =
    'xl/worksheets/sheet1.xml' in parts
      ? 'xl/worksheets/sheet1.xml'
      : Object.keys(parts)
          .filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n))
          .sort()[0];
  const sheet = sheetName ? xmlPart(parts, sheetName) : null;
  if (!sheet)
    throw new ReportError('UNKNOWN_FORMAT', 'This Excel file has no worksheet: it is not a MetaTrader 5 report.');
  const strings = sharedStrings(xmlPart(parts, 'xl/sharedStrings.xml'));

  const values = new Map<number, Map<number, string>>();
  const merges: Array<{ r1: number; c1: number; r2: number; c2: number }> = [];
  let ref = '';
  let type = '';
  let value = '';
  let inValue = false;
  let inInline = false;
  let currentRow = 0;
  let nextCol = 0;
  parseXml(sheet, {
    onopentag(name, attribs) {
      const local = name.slice(name.indexOf(':') + 1);
      if (local === 'row') {
        currentRow = attribs.r ? Number(attribs.r) : currentRow + 1;
        nextCol = 0;
      } else if (local === 'c') {
        ref = attribs.r ?? '';
        type = attribs.t ?? 'n';
        value = '';
      } else if (local === 'v') inValue = true;
      else if (local === 't' && type === 'inlineStr') inInline = true;
      else if (local === 'mergeCell' && attribs.ref) {
        const [a, b = a] = attribs.ref.split(':');
        const start = cellRef(a!);
        const end = cellRef(b!);
        merges.push({ r1: start.row, c1: start.col, r2: end.row, c2: end.col });
      }
    },
    ontext(data) {
      if (inValue || inInline) value += data;
    },
    onclosetag(name) {
      const local = name.slice(name.indexOf(':') + 1);
      if (local === 'v') inValue = false;
      else if (local === 't') inInline = false;
      else if (local === 'c') {
        const at = ref ? cellRef(ref) : { col: nextCol, row: currentRow };
        nextCol = at.col + 1;
        let text = value;
        if (type === 's') text = strings[Number(value)] ?? '';
        else if (type === 'n' && value !== '') text = expandExponent(value.trim());
        else if (type === 'b') text = value === '1' ? 'TRUE' : 'FALSE';
        else if (type === 'e') text = '';
        let row = values.get(at.row);
        if (!row) values.set(at.row, (row = new Map<number, string>()));
        row.set(at.col, text);
      }
    },
  });

  // Cells keyed by row × 16384 + column (Excel's column limit).
  const key = (r: number, c: number) => r * 16384 + c;
  const spanAt = new Map<number, number>();
  const covered = new Set<number>();
  for (const m of merges) {
    spanAt.set(key(m.r1, m.c1), m.c2 - m.c1 + 1);
    for (let r = m.r1; r <= m.r2; r++)
      for (let c = m.c1; c <= m.c2; c++) if (r !== m.r1 || c !== m.c1) covered.add(key(r, c));
  }
  const rows: Row[] = [];
  for (const rowNumber of [...values.keys()].sort((a, b) => a - b)) {
    const cellsByCol = values.get(rowNumber)!;
    const maxCol = Math.max(...cellsByCol.keys());
    const cells: Cell[] = [];
    for (let col = 0; col <= maxCol; col++) {
      if (covered.has(key(rowNumber, col))) continue;
      const text = cleanText(cellsByCol.get(col) ?? '');
      cells.push({ text, colspan: spanAt.get(key(rowNumber, col)) ?? 1, col, title: null });
    }
    rows.push({ line: rowNumber, cells, hiddenText: null });
  }
  return rows;
}
