import { Parser } from 'htmlparser2';
import { cleanText, LineCounter } from './text';

/*
 * A report's HTML as a stream of table rows, each a list of cells with their colspan: the one shape the MT4 and MT5
 * readers work on (the MT5 XLSX reader builds the same rows from its sheet). htmlparser2's callback parser, no DOM:
 * a 33 MB statement is read in one pass, each row handed over and dropped as soon as it closes.
 */

export interface Cell {
  text: string;
  colspan: number;
  /** The cell's first column in the row (colspans of the visible cells before it counted). */
  col: number;
  /** The `title` attribute (MT4 puts the order comment on the ticket cell). */
  title: string | null;
}

export interface Row {
  /** 1-based line of the file where the row starts (XLSX: the sheet's row number). */
  line: number;
  /**
   * The visible cells, in order. MT5 hides alternative cells with `class="hidden"` (or an inline `display:none`):
   * they are dropped here, before any mapping, so that they cannot shift the columns.
   */
  cells: Cell[];
  /** Text of the first non-empty hidden cell (the MT5 Positions comment); null when none. */
  hiddenText: string | null;
}

export interface HtmlDocument {
  /** `<title>` text, cleaned. */
  title: string;
  /** Text of the first `<div>` with a 20pt font before the table (the MT4 broker name). */
  banner: string | null;
  /** A `</table>` was read: the file was not cut inside its table. */
  tableClosed: boolean;
  /** Lines in the file. */
  lines: number;
}

function isHidden(attribs: Record<string, string>): boolean {
  const cls = attribs.class;
  if (cls && cls.includes('hidden') && cls.split(/\s+/).includes('hidden')) return true;
  const style = attribs.style;
  return !!style && style.includes('none') && style.replace(/\s+/g, '').toLowerCase().includes('display:none');
}

export function readHtmlRows(text: string, onRow: (row: Row) => void): HtmlDocument {
  const lines = new LineCounter(text);
  let title = '';
  let inTitle = false;
  let banner: string | null = null;
  let bannerDepth = 0;
  let bannerText = '';
  let divDepth = 0;
  let tableSeen = false;
  let tableClosed = false;
  let ending = false;
  let row: Row | null = null;
  let nextCol = 0;
  let cell: { text: string; colspan: number; hidden: boolean; title: string | null } | null = null;

  const startRow = () => {
    row = { line: lines.at(parser.startIndex), cells: [], hiddenText: null };
    nextCol = 0;
  };
  const endCell = () => {
    if (!cell || !row) return;
    const text = cleanText(cell.text);
    if (cell.hidden) {
      if (row.hiddenText === null && text !== '') row.hiddenText = text;
    } else {
      row.cells.push({ text, colspan: cell.colspan, col: nextCol, title: cell.title });
      nextCol += cell.colspan;
    }
    cell = null;
  };
  const endRow = () => {
    endCell();
    if (row) onRow(row);
    row = null;
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        switch (name) {
          case 'title':
            inTitle = true;
            break;
          case 'div':
            divDepth++;
            if (banner === null && bannerDepth === 0 && !tableSeen && (attribs.style ?? '').includes('20pt')) {
              bannerDepth = divDepth;
              bannerText = '';
            }
            break;
          case 'table':
            tableSeen = true;
            break;
          case 'tr':
            endRow();
            startRow();
            break;
          case 'td':
          case 'th': {
            endCell();
            if (!row) startRow();
            const span = attribs.colspan === undefined ? 1 : Number.parseInt(attribs.colspan, 10);
            cell = {
              text: '',
              colspan: Number.isFinite(span) && span > 0 ? span : 1,
              hidden: isHidden(attribs),
              title: attribs.title !== undefined ? cleanText(attribs.title) : null,
            };
            break;
          }
          case 'br':
            if (cell) cell.text += ' ';
            break;
        }
      },
      ontext(data) {
        if (cell) cell.text += data;
        else if (inTitle) title += data;
        if (bannerDepth) bannerText += data;
      },
      onclosetag(name) {
        // At the end of the input the parser closes whatever is still open: a file cut in the middle of its table.
        if (ending) return;
        switch (name) {
          case 'title':
            inTitle = false;
            break;
          case 'div':
            if (bannerDepth === divDepth) {
              banner = cleanText(bannerText) || null;
              bannerDepth = 0;
            }
            divDepth = Math.max(0, divDepth - 1);
            break;
          case 'td':
          case 'th':
            endCell();
            break;
          case 'tr':
            endRow();
            break;
          case 'table':
            endRow();
            tableClosed = true;
            break;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(text);
  // A row still open at the end belongs to a file cut in the middle: it is not handed over.
  ending = true;
  parser.end();
  return { title: cleanText(title), banner, tableClosed, lines: lines.at(text.length) };
}
