import { CTable, CTableBody, CTableDataCell, CTableHead, CTableHeaderCell, CTableRow } from '@coreui/react';
import type { Attachment } from '@pipsense/contract';

type TradesAttachment = Extract<Attachment, { type: 'trades' }>;
type Cell = string | number | null | undefined;

const numeric = (value: Cell) =>
  typeof value === 'number' || (typeof value === 'string' && /^[-+]?\d+(\.\d+)?$/.test(value));
/** Profit and loss columns are coloured by sign; other numbers (units, prices) are not. */
const isProfitColumn = (key: string, label: string) => /p\/?l|pnl|profit/i.test(`${key} ${label}`);

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Broker times arrive as RFC 3339 UTC; the trader reads them in local time, as elsewhere in the app. */
function display(value: Cell): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'string' && isoInstant.test(value)) {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return dateTime.format(ms);
  }
  return String(value);
}

function tone(value: Cell): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (value === null || value === undefined || Number.isNaN(n) || n === 0) return '';
  return n < 0 ? 'text-danger' : 'text-success';
}

/** A list of trades an answer was computed from, as a compact table that scrolls sideways on a phone. */
export function TradesTable({ attachment }: { attachment: TradesAttachment }) {
  const { columns, rows } = attachment;
  const numericColumn = new Set(
    columns
      .filter((c) => rows.some((r) => r[c.key] != null) && rows.every((r) => r[c.key] == null || numeric(r[c.key])))
      .map((c) => c.key),
  );
  return (
    <figure className="chat-attachment mb-0">
      <figcaption className="small fw-semibold mb-1">{attachment.title}</figcaption>
      {rows.length === 0 ? (
        <p className="small text-body-secondary mb-0">No trades.</p>
      ) : (
        <CTable small striped hover responsive className="chat-trades mb-0 small">
          <CTableHead>
            <CTableRow>
              {columns.map((c) => (
                <CTableHeaderCell key={c.key} scope="col" className={numericColumn.has(c.key) ? 'text-end' : ''}>
                  {c.label}
                </CTableHeaderCell>
              ))}
            </CTableRow>
          </CTableHead>
          <CTableBody>
            {rows.map((row, i) => (
              <CTableRow key={i}>
                {columns.map((c) => {
                  const value = row[c.key];
                  const classes = [
                    numericColumn.has(c.key) ? 'text-end chat-num' : '',
                    isProfitColumn(c.key, c.label) ? tone(value) : '',
                  ].join(' ');
                  return (
                    <CTableDataCell key={c.key} className={classes.trim()}>
                      {display(value)}
                    </CTableDataCell>
                  );
                })}
              </CTableRow>
            ))}
          </CTableBody>
        </CTable>
      )}
    </figure>
  );
}
